// The reflector through a TCP proxy that cuts its connections again and again while pods churn
// (issue 6, acceptance 2): every cut watch resumes, and after the churn the cache equals a fresh
// list from the server object by object, with no lost or stale object.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>

#include "test/integration/cache/cluster_fixture.hpp"
#include "test/integration/cache/pod_ops.hpp"

namespace ctrl::cache::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

struct ChurnResult {
    int creates = 0;
    int updates = 0;
    int deletes = 0;
    Status error;
};

// Random creates, label updates and deletes on the pods of ns until `until`, one at a time.
Task<ChurnResult> Churn(rest::RestClient& client, std::string ns, std::vector<std::string> names,
                        Clock::time_point until, Context ctx) {
    ChurnResult result;
    std::mt19937 random(12345);
    std::size_t next = 0;
    while (Clock::now() < until && result.error.Ok()) {
        const unsigned roll = random() % 10;
        if (roll < 3 || names.size() < 10) {
            std::string name = PodName("new-", next);
            result.error = co_await CreatePod(client, ns, name, next++, ctx);
            names.push_back(std::move(name));
            ++result.creates;
        } else if (roll < 7) {
            const std::string& name = names[random() % names.size()];
            const std::string value = std::to_string(random());
            const std::string key = "churn";  // named: GCC 12 mishandles temporaries inside co_await
            result.error = co_await LabelPod(client, ns, name, key, value, ctx);
            ++result.updates;
        } else {
            const std::size_t i = random() % names.size();
            const std::string name = names[i];
            names.erase(names.begin() + static_cast<std::ptrdiff_t>(i));
            result.error = co_await DeletePod(client, ns, name, ctx);
            ++result.deletes;
        }
    }
    co_return result;
}

class ChurnTest : public ClusterTest {};

TEST_F(ChurnTest, CacheEqualsAFreshListAfterChurnWithCutConnections) {
    constexpr std::size_t kPods = 200;
    const std::string ns = "cache-churn";
    ASSERT_TRUE(Run(CreateNamespace(*client_, ns, Within(30s))).Ok());
    ASSERT_TRUE(Run(CreatePods(*client_, ns, "pod-", kPods, 16, Within(120s))).Ok());
    UseProxy();
    StartReflector(ns, {.initial_backoff = 50ms, .max_backoff = 1s});
    ASSERT_TRUE(Run(reflector_->WaitForSync(Within(60s))).Ok());

    std::vector<std::string> names;
    for (std::size_t i = 0; i < kPods; ++i)
        names.push_back(PodName("pod-", i));
    std::atomic<bool> churned{false};
    ChurnResult churn;
    boost::asio::co_spawn(io_, Churn(*client_, ns, names, Clock::now() + 12s, Within(60s)),
                          [&](std::exception_ptr, ChurnResult result) {
                              churn = std::move(result);
                              churned = true;
                          });
    // Cut every 200-1000 ms while the churn runs.
    std::mt19937 random(777);
    int cuts = 0;
    int cut_connections = 0;
    const auto deadline = Clock::now() + 60s;
    while (!churned.load() && Clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200 + random() % 800));
        cut_connections += proxy_->CutAll();
        ++cuts;
    }
    ASSERT_TRUE(churned.load()) << "the churn did not end within 60 s";
    ASSERT_TRUE(churn.error.Ok()) << churn.error;

    // The cache must catch up with the server: compare with a fresh list until equal.
    std::string differences = "not compared yet";
    const auto caught_up_from = Clock::now();
    const auto equals_a_fresh_list = [&] {
        StatusOr<std::vector<Object>> fresh = Run(ListPods(*client_, ns, Within(30s)));
        differences = fresh.Ok() ? CompareStore(store_, *fresh) : "no fresh list: " + fresh.GetStatus().ToString();
        return differences.empty();
    };
    const bool caught_up = Eventually(equals_a_fresh_list, ctrl::testing::kTestWait, 100ms);
    const ReflectorStats stats = reflector_->Stats();
    std::printf(
        "churn: %d creates, %d updates, %d deletes in 12 s; %d cuts (%d connections); reflector: %lld watches, "
        "%lld lists, %lld events, %lld failures; equal to a fresh list %.0f ms after the churn\n",
        churn.creates, churn.updates, churn.deletes, cuts, cut_connections, static_cast<long long>(stats.watches),
        static_cast<long long>(stats.lists), static_cast<long long>(stats.events),
        static_cast<long long>(stats.failures),
        std::chrono::duration<double, std::milli>(Clock::now() - caught_up_from).count());
    EXPECT_TRUE(caught_up) << "the cache differs from a fresh list: " << differences;
    EXPECT_GT(cut_connections, 5) << "the proxy cut too few connections to test anything";
    EXPECT_GT(stats.watches, 5);
}

}  // namespace
}  // namespace ctrl::cache::test
