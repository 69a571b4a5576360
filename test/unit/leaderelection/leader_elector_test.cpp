// The leader election decision logic (client-go's tryAcquireOrRenew) over the fake client, with
// clocks the tests move; and Run's acquire / renew / lose cycle with short real timers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/api/lease.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/fake/client_builder.hpp"
#include "ctrl/leaderelection/leader_elector.hpp"
#include "ctrl/metrics/registry.hpp"
#include "test/support/eventually.hpp"
#include "test/support/manual_clock.hpp"

namespace ctrl::leaderelection {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::TestContext;

// A wall clock that moves with a ManualClock.
struct TestClocks {
    ctrl::testing::ManualClock steady;
    std::chrono::system_clock::time_point wall_start = std::chrono::system_clock::now();
    std::chrono::steady_clock::time_point steady_start = steady.Now();

    std::chrono::system_clock::time_point Wall() const {
        return wall_start +
               std::chrono::duration_cast<std::chrono::system_clock::duration>(steady.Now() - steady_start);
    }
};

class LeaderElectorTest : public ::testing::Test {
  protected:
    void SetUp() override {
        StatusOr<std::unique_ptr<fake::FakeClient>> client = fake::NewClientBuilder()
                                                                 .WithInterceptor([this](const fake::Call& call) {
                                                                     if (call.gvk.kind == "Lease")
                                                                         ++calls_[std::string(call.verb)];
                                                                     return OkStatus();
                                                                 })
                                                                 .Build();
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        client_ = std::move(client).Value();
    }

    std::unique_ptr<LeaderElector> NewElector(const std::string& identity, TestClocks& clocks,
                                              metrics::Registry& registry) {
        LeaderElectionOptions options;
        options.name = "election";
        options.namespace_name = "ns";
        options.identity = identity;
        options.registry = &registry;
        options.now = [&clocks] { return clocks.steady.Now(); };
        options.wall_now = [&clocks] { return clocks.Wall(); };
        StatusOr<std::unique_ptr<LeaderElector>> elector = LeaderElector::New(*client_, std::move(options));
        EXPECT_TRUE(elector.Ok()) << elector.GetStatus();
        return elector.Ok() ? std::move(elector).Value() : nullptr;
    }

    bool Try(LeaderElector& elector) { return RunSync(io_, elector.TryAcquireOrRenew(TestContext())); }

    api::Lease ReadLease() {
        api::Lease lease;
        const Status status = RunSync(io_, client_->Get(TestContext(), ObjectKey("ns", "election"), lease));
        EXPECT_TRUE(status.Ok()) << status;
        return lease;
    }

    std::map<std::string, int> calls_;
    boost::asio::io_context io_;
    std::unique_ptr<fake::FakeClient> client_;
    TestClocks clocks_a_, clocks_b_;
    metrics::Registry registry_a_, registry_b_;
};

TEST_F(LeaderElectorTest, NewRefusesInconsistentDurations) {
    LeaderElectionOptions options;
    options.name = "election";
    options.namespace_name = "ns";
    options.renew_deadline = options.lease_duration;
    EXPECT_TRUE(IsBadRequest(LeaderElector::New(*client_, options).GetStatus()));
    options.renew_deadline = 2s;
    options.retry_period = 2s;  // 1.2 * retry_period > renew_deadline
    EXPECT_TRUE(IsBadRequest(LeaderElector::New(*client_, options).GetStatus()));
    options.retry_period = 1s;
    options.name.clear();
    EXPECT_TRUE(IsBadRequest(LeaderElector::New(*client_, options).GetStatus()));
    options.name = "election";
    StatusOr<std::unique_ptr<LeaderElector>> elector = LeaderElector::New(*client_, options);
    ASSERT_TRUE(elector.Ok()) << elector.GetStatus();
    EXPECT_NE((*elector)->Identity().find('_'), std::string::npos) << "hostname_uuid: " << (*elector)->Identity();
}

TEST_F(LeaderElectorTest, FirstCandidateCreatesTheLease) {
    auto a = NewElector("a", clocks_a_, registry_a_);
    EXPECT_TRUE(Try(*a));
    EXPECT_TRUE(a->IsLeader());
    EXPECT_EQ(a->GetLeader(), "a");
    const api::Lease lease = ReadLease();
    EXPECT_EQ(lease.HolderIdentity(), "a");
    EXPECT_EQ(lease.LeaseDurationSeconds(), 15);
    EXPECT_EQ(lease.LeaseTransitions(), 0);
    EXPECT_TRUE(lease.AcquireTime().has_value());
    EXPECT_EQ(lease.AcquireTime(), lease.RenewTime());
}

TEST_F(LeaderElectorTest, AValidLeaseOfAnotherHolderIsRespected) {
    auto a = NewElector("a", clocks_a_, registry_a_);
    auto b = NewElector("b", clocks_b_, registry_b_);
    ASSERT_TRUE(Try(*a));
    EXPECT_FALSE(Try(*b));
    EXPECT_FALSE(b->IsLeader());
    EXPECT_EQ(b->GetLeader(), "a");
    clocks_b_.steady.Advance(14s);
    EXPECT_FALSE(Try(*b)) << "14 s after b first saw the record, a 15 s lease is still valid";
    EXPECT_EQ(ReadLease().HolderIdentity(), "a");
}

TEST_F(LeaderElectorTest, AnExpiredLeaseIsTakenOverAndCountsATransition) {
    auto a = NewElector("a", clocks_a_, registry_a_);
    auto b = NewElector("b", clocks_b_, registry_b_);
    ASSERT_TRUE(Try(*a));
    EXPECT_FALSE(Try(*b));
    clocks_b_.steady.Advance(16s);
    EXPECT_TRUE(Try(*b));
    EXPECT_TRUE(b->IsLeader());
    const api::Lease lease = ReadLease();
    EXPECT_EQ(lease.HolderIdentity(), "b");
    EXPECT_EQ(lease.LeaseTransitions(), 1);

    // a, unaware, tries its fast path: Conflict, then the slow path sees b's valid lease.
    EXPECT_FALSE(Try(*a));
    EXPECT_FALSE(a->IsLeader());
    EXPECT_EQ(a->GetLeader(), "b");
    EXPECT_EQ(
        registry_a_.SerializeText().find("leader_election_slowpath_total{name=\"election\"} 1") != std::string::npos,
        true)
        << registry_a_.SerializeText();
}

TEST_F(LeaderElectorTest, RenewalsKeepTheLeaseAliveOnTheOthersClock) {
    auto a = NewElector("a", clocks_a_, registry_a_);
    auto b = NewElector("b", clocks_b_, registry_b_);
    ASSERT_TRUE(Try(*a));
    EXPECT_FALSE(Try(*b));
    for (int i = 0; i < 4; ++i) {
        clocks_a_.steady.Advance(10s);
        clocks_b_.steady.Advance(10s);
        ASSERT_TRUE(Try(*a));
        EXPECT_FALSE(Try(*b)) << "b saw a's renewal, so its clock restarts for the lease";
    }
    const api::Lease lease = ReadLease();
    EXPECT_EQ(lease.LeaseTransitions(), 0);
    EXPECT_LT(*lease.AcquireTime(), *lease.RenewTime()) << "a renewal keeps the acquire time";
}

TEST_F(LeaderElectorTest, TheLeadersRenewalIsOneUpdateWithoutARead) {
    auto a = NewElector("a", clocks_a_, registry_a_);
    ASSERT_TRUE(Try(*a));
    calls_.clear();
    clocks_a_.steady.Advance(2s);
    ASSERT_TRUE(Try(*a));
    EXPECT_EQ(calls_["update"], 1);
    EXPECT_EQ(calls_["get"], 0);
}

TEST_F(LeaderElectorTest, AReleasedLeaseIsTakenAtOnce) {
    auto a = NewElector("a", clocks_a_, registry_a_);
    auto b = NewElector("b", clocks_b_, registry_b_);
    ASSERT_TRUE(Try(*a));
    EXPECT_FALSE(Try(*b));
    EXPECT_TRUE(RunSync(io_, a->Release(TestContext())));
    EXPECT_FALSE(a->IsLeader());
    api::Lease lease = ReadLease();
    EXPECT_EQ(lease.HolderIdentity(), "");
    EXPECT_EQ(lease.LeaseDurationSeconds(), 1);
    EXPECT_TRUE(Try(*b)) << "no holder: no need to wait for the lease to expire";
    lease = ReadLease();
    EXPECT_EQ(lease.HolderIdentity(), "b");
    EXPECT_EQ(lease.LeaseTransitions(), 1);
    EXPECT_TRUE(RunSync(io_, a->Release(TestContext()))) << "releasing a lease held by another does nothing";
    EXPECT_EQ(ReadLease().HolderIdentity(), "b");
}

// A renewal cut short by a cancel may still have reached the server: the Lease then changed after
// the version the elector last saw, and its release meets a Conflict. Still ours: released anyway.
TEST_F(LeaderElectorTest, AReleaseAfterAWriteItDidNotSeeLandReleasesTheLeaseItStillHolds) {
    auto a = NewElector("a", clocks_a_, registry_a_);
    ASSERT_TRUE(Try(*a));
    api::Lease renewed_unseen = ReadLease();
    renewed_unseen.SetRenewTime(clocks_a_.Wall() + 1s);
    ASSERT_TRUE(RunSync(io_, client_->Update(TestContext(), renewed_unseen)).Ok());

    EXPECT_TRUE(RunSync(io_, a->Release(TestContext())));
    EXPECT_FALSE(a->IsLeader());
    const api::Lease lease = ReadLease();
    EXPECT_EQ(lease.HolderIdentity(), "");
    EXPECT_EQ(lease.LeaseDurationSeconds(), 1);
}

// The same Conflict when another holder took the Lease meanwhile: the release leaves it alone.
TEST_F(LeaderElectorTest, AReleaseNeverOverwritesAnotherHoldersLease) {
    auto a = NewElector("a", clocks_a_, registry_a_);
    ASSERT_TRUE(Try(*a));
    api::Lease taken = ReadLease();
    taken.SetHolderIdentity("b");
    ASSERT_TRUE(RunSync(io_, client_->Update(TestContext(), taken)).Ok());

    EXPECT_TRUE(RunSync(io_, a->Release(TestContext())));
    EXPECT_FALSE(a->IsLeader());
    EXPECT_EQ(a->GetLeader(), "b");
    EXPECT_EQ(ReadLease().HolderIdentity(), "b");
}

// Run: leads, is told so, and steps down when another holder overwrites the Lease.
TEST_F(LeaderElectorTest, RunLeadsAndStepsDownWhenTheLeaseIsTaken) {
    boost::asio::io_context io;
    auto work = boost::asio::make_work_guard(io);
    std::thread loop([&] { io.run(); });
    std::atomic<int> started{0}, stopped{0};
    std::atomic<bool> leading_ctx_cancelled{false};
    LeaderElectionOptions options;
    options.name = "election";
    options.namespace_name = "ns";
    options.identity = "a";
    options.registry = &registry_a_;
    options.lease_duration = 3s;
    options.renew_deadline = 500ms;
    options.retry_period = 100ms;
    options.callbacks.on_started_leading = [&](Context leading) {
        ++started;
        leading.OnCancel([&](const Status&) { leading_ctx_cancelled = true; });
    };
    options.callbacks.on_stopped_leading = [&] { ++stopped; };
    StatusOr<std::unique_ptr<LeaderElector>> elector = LeaderElector::New(*client_, options);
    ASSERT_TRUE(elector.Ok()) << elector.GetStatus();
    LeaderElector& a = **elector;
    std::atomic<bool> done{false};
    Status result;
    boost::asio::co_spawn(io, a.Run(TestContext()), [&](std::exception_ptr, Status status) {
        result = status;
        done = true;
    });
    ASSERT_TRUE(ctrl::testing::Eventually([&] { return a.Elected().HasBeenNotified(); }));
    EXPECT_EQ(started, 1);
    EXPECT_NE(registry_a_.SerializeText().find("leader_election_master_status{name=\"election\"} 1"),
              std::string::npos);

    // Someone else takes the Lease (its renewTime now): a's renewals fail until the deadline.
    api::Lease lease = RunOn(io.get_executor(), [&]() -> Task<api::Lease> {
        api::Lease current;
        EXPECT_TRUE((co_await client_->Get(TestContext(), ObjectKey("ns", "election"), current)).Ok());
        current.SetHolderIdentity("intruder");
        EXPECT_TRUE((co_await client_->Update(TestContext(), current)).Ok());
        co_return current;
    }());
    ASSERT_TRUE(ctrl::testing::Eventually([&] { return done.load(); }));
    EXPECT_FALSE(result.Ok());
    EXPECT_NE(result.Message().find("leader election lost"), std::string::npos) << result;
    EXPECT_EQ(stopped, 1);
    EXPECT_TRUE(leading_ctx_cancelled);
    EXPECT_FALSE(a.IsLeader());
    EXPECT_EQ(a.GetLeader(), "intruder");
    EXPECT_NE(registry_a_.SerializeText().find("leader_election_master_status{name=\"election\"} 0"),
              std::string::npos);
    work.reset();
    loop.join();
}

}  // namespace
}  // namespace ctrl::leaderelection
