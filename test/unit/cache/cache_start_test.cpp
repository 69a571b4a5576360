// Cache::WaitForStarted: a wait begun before the cache runs is woken by Start (a notification, no
// timer), returns at once once started, and ends with its context otherwise. No request is made:
// the cache has no informer.

#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/cache/cache.hpp"
#include "ctrl/discovery/static_rest_mapper.hpp"

namespace ctrl::cache {
namespace {

class CacheStartTest : public ::testing::Test {
  protected:
    void SetUp() override {
        rest::Config config;
        config.host = "https://127.0.0.1:1";  // never dialled
        auto client = rest::RestClient::New(config, io_.get_executor(), registry_);
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        cache_ = std::make_unique<Cache>(std::move(client).Value(), std::make_shared<discovery::StaticRESTMapper>(),
                                         io_.get_executor(), CacheOptions{});
    }
    void TearDown() override { stop_.Cancel(); }

    std::shared_ptr<std::optional<Status>> StartWait(Context ctx) {
        auto result = std::make_shared<std::optional<Status>>();
        boost::asio::co_spawn(io_, cache_->WaitForStarted(std::move(ctx)),
                              [result](std::exception_ptr, Status status) { *result = std::move(status); });
        return result;
    }
    // Runs what is ready on the loop, never waiting for a timer.
    void RunReady() {
        while (io_.poll() > 0) {
        }
    }

    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
    metrics::Registry registry_;
    std::unique_ptr<Cache> cache_;
    Context stop_ = Context::WithCancel(Context::Background());
};

TEST_F(CacheStartTest, AWaitBegunBeforeTheRunIsWokenByIt) {
    const auto waited = StartWait(Context::Background());
    RunReady();
    EXPECT_FALSE(waited->has_value());
    EXPECT_FALSE(cache_->Started());
    boost::asio::co_spawn(io_, cache_->Run(stop_), [](std::exception_ptr, Status) {});
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

}  // namespace
}  // namespace ctrl::cache
