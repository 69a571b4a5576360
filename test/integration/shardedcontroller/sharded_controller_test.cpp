// Sharded controllers against the real control plane: members in one process, each with its own
// cluster (rest client, cache, byte-counting transport) and a controller built with ShardedBy
// that stamps each ConfigMap with its member id. Every reconcile's interval is recorded per object;
// no two members' intervals of one object may overlap, in any test. With the ShardedListAndWatch
// gate on (this binary's control plane) the server filters each member's informer; with it off
// (a second control plane) the cache filters, and says so once.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>

#include "test/integration/shardedcontroller/shard_members.hpp"
#include "test/support/control_plane.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/log_capture.hpp"
#include "test/support/moved_buckets.hpp"

namespace ctrl::shardedcontroller {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using Clock = std::chrono::steady_clock;

constexpr int kNamespaces = 10;
constexpr int kPerNamespace = 100;
constexpr auto kLease = 3s;

class ShardedControllerTest : public ::testing::Test {
  protected:
    void TearDown() override { members_.reset(); }

    void StartMembers(const std::string& kubeconfig) {
        members_ = std::make_unique<testing::ShardMembers>(kubeconfig, run_);
    }

    std::string run_ = testing::ShardMembers::UniqueName("shards");
    std::unique_ptr<testing::ControlPlane> gate_off_;  // outlives the members
    std::unique_ptr<testing::ShardMembers> members_;
};

// Acceptance 1, 2 (and 3, 4) with the gate on: the server filters each member's informer.
TEST_F(ShardedControllerTest, ThreeMembersStampEveryObjectOnceKillAndJoinMoveOnlyWhatMust) {
    StartMembers(testing::SharedControlPlane().KubeconfigPath());
    ASSERT_TRUE(members_->CreateConfigMaps(kNamespaces, kPerNamespace).Ok());
    const Clock::time_point started = Clock::now();
    ASSERT_TRUE(members_->Join("member-a").Ok());
    ASSERT_TRUE(members_->Join("member-b").Ok());
    ASSERT_TRUE(members_->Join("member-c", {.release_on_stop = false}).Ok());
    ASSERT_TRUE(Eventually([&] { return members_->Settled(); }, 60s, 500ms)) << members_->Describe();
    std::printf(
        "sharded: %d ConfigMaps stamped by their owners %lld ms after 3 members started\n", kNamespaces * kPerNamespace,
        static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count()));
    for (const std::string id : {"member-a", "member-b", "member-c"}) {
        EXPECT_TRUE(Eventually([&] { return members_->CacheHoldsExactlyItsShare(members_->Get(id)); })) << id;
        EXPECT_EQ(members_->StatsOf(id).outside_shard, 0) << id << ": the server filtered";
    }

    // Watch traffic: one member's watch carries about a third of what an unsharded cache's does.
    const testing::WatchTraffic traffic = members_->MeasureWatchTraffic();
    for (const auto& [id, bytes] : traffic.by_member) {
        const double share = static_cast<double>(bytes) / static_cast<double>(traffic.unsharded);
        std::printf("sharded: %s's watches received %lld bytes, %.2f of an unsharded cache's %lld\n", id.c_str(),
                    static_cast<long long>(bytes), share, static_cast<long long>(traffic.unsharded));
        EXPECT_GT(share, 0.2) << id;
        EXPECT_LT(share, 0.5) << id;
    }

    // A member killed: its lease expires, its buckets are owned again and their objects reconciled.
    const std::vector<int> orphaned = members_->Get("member-c").Owned();
    const Clock::time_point killed = Clock::now();
    members_->Kill("member-c");
    ASSERT_TRUE(Eventually([&] { return members_->Settled(); }, kLease + 30s, 500ms)) << members_->Describe();
    const Clock::time_point reowned = members_->OwnedAgainAt(orphaned, killed);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(reowned - killed);
    std::printf("sharded: a killed member's %zu buckets owned again %lld ms after the kill (lease %lld s)\n",
                orphaned.size(), static_cast<long long>(took.count()),
                static_cast<long long>(std::chrono::seconds(kLease).count()));
    EXPECT_LE(took, kLease + 5s);
    EXPECT_TRUE(members_->EveryObjectReconciledSince(orphaned, killed)) << "the orphaned buckets' objects";

    // A third member again, then a fourth: at most a quarter of the buckets (plus one) move.
    ASSERT_TRUE(members_->Join("member-c2").Ok());
    ASSERT_TRUE(Eventually([&] { return members_->Settled(); }, 60s, 500ms)) << members_->Describe();
    const std::map<int, std::string> before = members_->Owners();
    ASSERT_TRUE(members_->Join("member-d").Ok());
    ASSERT_TRUE(Eventually([&] { return members_->Settled(); }, 60s, 500ms)) << members_->Describe();
    const int moved = testing::MovedBuckets(before, members_->Owners(), testing::kShardBuckets);
    std::printf("sharded: a fourth member joining three moved %d of %d buckets\n", moved, testing::kShardBuckets);
    EXPECT_LE(moved, testing::kShardBuckets / 4 + 1);

    members_->StopAll();
    const std::vector<std::string> overlaps = members_->Overlaps();
    EXPECT_TRUE(overlaps.empty()) << overlaps.size() << " overlapping reconciles, e.g. " << overlaps.front();
    EXPECT_GT(members_->Reconciles(), kNamespaces * kPerNamespace);
}

// Acceptance 5: the gate off. The server ignores shardSelector; each member's cache filters, the
// warning is logged once, and the same guarantees hold.
TEST_F(ShardedControllerTest, WithTheGateOffTheCacheFiltersAndWarnsOnce) {
    testing::LogCapture captured(0);
    gate_off_ = std::make_unique<testing::ControlPlane>(testing::ControlPlane::Options{});
    ASSERT_TRUE(gate_off_->Start().Ok());
    StartMembers(gate_off_->KubeconfigPath());
    ASSERT_TRUE(members_->CreateConfigMaps(kNamespaces, kPerNamespace / 2).Ok());
    ASSERT_TRUE(members_->Join("member-a").Ok());
    ASSERT_TRUE(members_->Join("member-b").Ok());
    ASSERT_TRUE(members_->Join("member-c", {.release_on_stop = false}).Ok());
    ASSERT_TRUE(Eventually([&] { return members_->Settled(); }, 60s, 500ms)) << members_->Describe();
    int64_t filtered = 0;
    for (const std::string id : {"member-a", "member-b", "member-c"}) {
        EXPECT_TRUE(Eventually([&] { return members_->CacheHoldsExactlyItsShare(members_->Get(id)); })) << id;
        filtered += members_->StatsOf(id).outside_shard;
    }
    EXPECT_GT(filtered, 0) << "the server sent every object";

    const std::vector<int> orphaned = members_->Get("member-c").Owned();
    const Clock::time_point killed = Clock::now();
    members_->Kill("member-c");
    ASSERT_TRUE(Eventually([&] { return members_->Settled(); }, kLease + 30s, 500ms)) << members_->Describe();
    EXPECT_LE(members_->OwnedAgainAt(orphaned, killed) - killed, kLease + 5s);
    EXPECT_TRUE(members_->EveryObjectReconciledSince(orphaned, killed));
    members_->StopAll();

    const std::vector<std::string> overlaps = members_->Overlaps();
    EXPECT_TRUE(overlaps.empty()) << overlaps.size() << " overlapping reconciles, e.g. " << overlaps.front();
    int warnings = 0;
    for (const std::string& line : captured.LinesWith("the API server ignored shardSelector")) {
        if (!line.starts_with("{"))
            ++warnings;
    }
    EXPECT_EQ(warnings, 1) << "the fallback is announced once";
}

// Acceptance 6: a reconciler that waits 20 ms (a call to a slow external API), 2 workers per
// replica, every object requeued 1 ms after its reconcile: reconciles per second with 1, 2 and 3
// replicas, over 5 s once the ring has settled.
TEST_F(ShardedControllerTest, ReconcilesPerSecondGrowWithTheReplicas) {
    StartMembers(testing::SharedControlPlane().KubeconfigPath());
    ASSERT_TRUE(members_->CreateConfigMaps(3, 100).Ok());
    const testing::MemberOptions busy{.busy = 20ms, .workers = 2};
    std::vector<double> rates;
    for (int replicas = 1; replicas <= 3; ++replicas) {
        ASSERT_TRUE(members_->Join("member-" + std::to_string(replicas), busy).Ok());
        ASSERT_TRUE(Eventually([&] { return members_->Settled(/*stamped=*/false); }, 60s, 200ms))
            << members_->Describe();
        std::this_thread::sleep_for(2s);  // the gained buckets' objects are listed and queued
        const int64_t before = members_->Reconciles();
        const Clock::time_point from = Clock::now();
        std::this_thread::sleep_for(5s);
        const double seconds = std::chrono::duration<double>(Clock::now() - from).count();
        rates.push_back(static_cast<double>(members_->Reconciles() - before) / seconds);
    }
    std::printf("sharded: reconciles per second (20 ms each, 2 workers per replica)\n");
    std::printf("  replicas  reconciles/s  x one replica\n");
    for (std::size_t i = 0; i < rates.size(); ++i)
        std::printf("  %8zu  %12.0f  %13.2f\n", i + 1, rates[i], rates[i] / rates[0]);
    for (std::size_t i = 1; i < rates.size(); ++i)
        EXPECT_GE(rates[i], 0.8 * static_cast<double>(i + 1) * rates[0]) << i + 1 << " replicas";
    members_->StopAll();
    const std::vector<std::string> overlaps = members_->Overlaps();
    EXPECT_TRUE(overlaps.empty()) << overlaps.size() << " overlapping reconciles, e.g. " << overlaps.front();
}

}  // namespace
}  // namespace ctrl::shardedcontroller
