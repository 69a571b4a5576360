// Cache::WaitForStarted: a wait begun before the cache runs is woken by Start (a notification, no
// timer), returns at once once started, and ends with its context otherwise. No request is made:
// the cache has no informer.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ctrl/cache/cache.hpp"
#include "ctrl/discovery/static_rest_mapper.hpp"
#include "test/support/manual_loop.hpp"

namespace ctrl::cache {
namespace {

class CacheStartTest : public ::testing::Test {
  protected:
    void SetUp() override {
        rest::Config config;
        config.host = "https://127.0.0.1:1";  // never dialled
        auto client = rest::RestClient::New(config, loop_.Executor(), registry_);
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        cache_ = std::make_unique<Cache>(std::move(client).Value(), std::make_shared<discovery::StaticRESTMapper>(),
                                         loop_.Executor(), CacheOptions{});
    }
    void TearDown() override { stop_.Cancel(); }

    // Starts cache_->WaitForStarted on the loop; its result once it ends.
    std::shared_ptr<std::optional<Status>> StartWait(Context ctx) {
        return loop_.Spawn(cache_->WaitForStarted(std::move(ctx)));
    }
    void RunReady() { loop_.RunReady(); }

    ctrl::testing::ManualLoop loop_;
    metrics::Registry registry_;
    std::unique_ptr<Cache> cache_;
    Context stop_ = Context::WithCancel(Context::Background());
};

TEST_F(CacheStartTest, AWaitBegunBeforeTheRunIsWokenByIt) {
    const auto waited = StartWait(Context::Background());
    RunReady();
    EXPECT_FALSE(waited->has_value());
    EXPECT_FALSE(cache_->Started());
    loop_.Spawn(cache_->Run(stop_));
    RunReady();  // the Run begins, and the notification resumes the wait: no timer runs
    EXPECT_TRUE(cache_->Started());
    ASSERT_TRUE(waited->has_value());
    EXPECT_TRUE(waited->value().Ok()) << waited->value();

    const auto again = StartWait(Context::Background());
    RunReady();
    ASSERT_TRUE(again->has_value()) << "once started, a wait returns at once";
    EXPECT_TRUE(again->value().Ok());
    stop_.Cancel();
    RunReady();
}

TEST_F(CacheStartTest, AWaitEndsWithItsContextWhenTheCacheDoesNotStart) {
    const Context ctx = Context::WithCancel(Context::Background());
    const auto waited = StartWait(ctx);
    RunReady();
    ctx.Cancel();
    RunReady();
    ASSERT_TRUE(waited->has_value());
    EXPECT_TRUE(IsCancelled(waited->value())) << waited->value();
    EXPECT_FALSE(cache_->Started());
}

// Namespaces at run time: a cache of every namespace refuses them (there is nothing to add to);
// a cache of named namespaces adds and removes names, and says which it holds.
TEST_F(CacheStartTest, NamespacesChangeOnlyInACacheOfNamedNamespaces) {
    const Status refused = cache_->AddNamespace("team-b");
    EXPECT_TRUE(IsBadRequest(refused)) << refused;
    EXPECT_THAT(refused.Message(), ::testing::HasSubstr("holds every namespace"));
    EXPECT_TRUE(IsBadRequest(cache_->RemoveNamespace("team-b")));
    EXPECT_TRUE(cache_->Namespaces().empty());

    rest::Config config;
    config.host = "https://127.0.0.1:1";
    auto client = rest::RestClient::New(config, loop_.Executor(), registry_);
    ASSERT_TRUE(client.Ok());
    CacheOptions options;
    options.default_namespaces = {"team-a"};
    Cache named(std::move(client).Value(), std::make_shared<discovery::StaticRESTMapper>(), loop_.Executor(), options);
    EXPECT_TRUE(IsBadRequest(named.AddNamespace("")));
    EXPECT_TRUE(named.AddNamespace("team-b").Ok());
    EXPECT_TRUE(named.AddNamespace("team-b").Ok());  // already there
    EXPECT_EQ(named.Namespaces(), (std::vector<std::string>{"team-a", "team-b"}));
    EXPECT_TRUE(named.RemoveNamespace("team-a").Ok());
    EXPECT_TRUE(named.RemoveNamespace("absent").Ok());
    EXPECT_EQ(named.Namespaces(), (std::vector<std::string>{"team-b"}));
    EXPECT_TRUE(IsNotFound(named.RemoveInformer(GroupVersionKind{"", "v1", "Pod"}, false)));
}

}  // namespace
}  // namespace ctrl::cache
