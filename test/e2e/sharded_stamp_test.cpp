// Issue 33, acceptance 1-5: a sharded test operator (ctrl-shard-stamper, shard_stamper.cpp) run as
// separate processes against the real control plane, with kube-apiserver's ShardedListAndWatch gate
// on (this binary's control plane: 10,000 ConfigMaps of ~1 KB in 20 namespaces) and off (a second
// control plane: 2,000 in 10). Three replicas stamp every ConfigMap with its owner's id; a fourth
// joins; one is SIGKILLed. Owners are read from the ring's Leases; every reconcile's start and end
// come from the replicas' shared intervals file, and no two replicas' intervals of one object may
// overlap (a killed replica's open ones last until the kill).

#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test/e2e/sharded_stamp_fixture.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/moved_buckets.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;
using testing::Eventually;
using Clock = std::chrono::steady_clock;

class ShardedStampTest : public ShardedStampFixture {};

TEST_F(ShardedStampTest, GateOnTenThousandConfigMapsThreeReplicasAFourthJoinsOneIsKilled) {
    Use(testing::SharedControlPlane());
    ASSERT_TRUE(CreateConfigMaps(20, 500).Ok());
    const Clock::time_point started = Clock::now();
    for (const char* id : {"replica-a", "replica-b", "replica-c"})
        ASSERT_TRUE(StartReplica(id));
    ASSERT_TRUE(Eventually([&] { return Settled(3); }, 60s, 500ms)) << Describe();
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
    std::printf("sharded e2e: 10000 ConfigMaps stamped by their owners %lld ms after 3 replicas started\n",
                static_cast<long long>(took.count()));
    EXPECT_LE(took, 30s);
    for (const char* id : {"replica-a", "replica-b", "replica-c"}) {
        double held = 0;
        EXPECT_TRUE(Eventually([&] { return (held = InformerObjects(id)) >= 3000 && held <= 3667; }, 30s, 500ms))
            << id << " holds " << held;
        std::printf("sharded e2e: %s's informer holds %.0f ConfigMaps\n", id, held);
    }
    ExpectWatchTrafficAboutAThird({"replica-a", "replica-b", "replica-c"});

    // A fourth replica: at most a quarter of the buckets (plus one) move.
    const std::map<int, std::string> before = Owners();
    ASSERT_TRUE(StartReplica("replica-d"));
    ASSERT_TRUE(Eventually([&] { return Settled(4); }, 60s, 500ms)) << Describe();
    const int moved = testing::MovedBuckets(before, Owners(), kBuckets);
    std::printf("sharded e2e: a fourth replica joining moved %d of %d buckets\n", moved, kBuckets);
    EXPECT_LE(moved, kBuckets / 4 + 1);

    // SIGKILL: the killed replica's buckets are owned again within its lease plus 5 s, and every
    // object in them is reconciled again.
    ExpectKilledReplicasBucketsTakenOver("replica-c", 3);
    StopAll();
    ExpectNoOverlaps();
}

TEST_F(ShardedStampTest, GateOffTheReplicasFilterOnTheClientAndSayItOnce) {
    ASSERT_TRUE(UseOwnControlPlane(testing::ShardTestOptions(/*gate_on=*/false)));
    ASSERT_TRUE(CreateConfigMaps(10, 200).Ok());
    for (const char* id : {"replica-a", "replica-b", "replica-c"})
        ASSERT_TRUE(StartReplica(id));
    ASSERT_TRUE(Eventually([&] { return Settled(3); }, 60s, 500ms)) << Describe();
    // Exactly the objects of its buckets (2,000 objects in 64 buckets vary too much per bucket for a
    // third within 10%: the gate-on test checks that at 10,000).
    for (const char* id : {"replica-a", "replica-b", "replica-c"}) {
        double held = 0;
        int share = 0;
        EXPECT_TRUE(
            Eventually([&] { return (held = InformerObjects(id)) == (share = ObjectsOwnedBy(id)); }, 30s, 500ms))
            << id << " holds " << held << ", its buckets have " << share;
    }
    const std::map<int, std::string> before = Owners();
    ASSERT_TRUE(StartReplica("replica-d"));
    ASSERT_TRUE(Eventually([&] { return Settled(4); }, 60s, 500ms)) << Describe();
    EXPECT_LE(testing::MovedBuckets(before, Owners(), kBuckets), kBuckets / 4 + 1);
    ExpectKilledReplicasBucketsTakenOver("replica-c", 3);
    StopAll();
    ExpectNoOverlaps();
    for (const char* id : {"replica-a", "replica-b", "replica-c", "replica-d"})
        EXPECT_EQ(LogOccurrences(id, "the API server ignored shardSelector"), 1) << id << ": warned once";
}

}  // namespace
}  // namespace ctrl::e2e
