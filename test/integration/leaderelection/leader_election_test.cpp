// Leader election against the real control plane (issue 14): two electors with different
// identities in one process, each with its own metrics registry, on one coordination.k8s.io/v1
// Lease. Short durations keep it quick: LeaseDuration 3 s, RenewDeadline 2 s, RetryPeriod 0.5 s.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/api/lease.hpp"
#include "ctrl/leaderelection/leader_elector.hpp"
#include "test/support/cluster_fixture.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::leaderelection {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using Clock = std::chrono::steady_clock;

// One elector running in the background, with what its callbacks saw.
struct Candidate {
    std::unique_ptr<LeaderElector> elector;
    std::unique_ptr<metrics::Registry> registry = std::make_unique<metrics::Registry>();
    Context ctx = Context::WithCancel(Context::Background());
    std::atomic<int> started{0};
    std::atomic<int> stopped{0};
    std::atomic<bool> done{false};
    Status result;

    // A test that ends early (a failed ASSERT) must not free an elector the loop still runs.
    ~Candidate() {
        if (!elector)  // never started
            return;
        ctx.Cancel();
        (void)Eventually([&] { return done.load(); });
    }

    double Gauge(const std::string& lease) const {
        const std::string text = registry->SerializeText();
        const std::string series = "leader_election_master_status{name=\"" + lease + "\"} ";
        const size_t at = text.find(series);
        return at == std::string::npos ? -1 : std::stod(text.substr(at + series.size()));
    }
};

class LeaderElectionTest : public ctrl::testing::ClusterFixture {
  protected:
    std::unique_ptr<Candidate> Start(const std::string& identity, std::chrono::milliseconds lease_duration,
                                     bool release_on_cancel) {
        auto candidate = std::make_unique<Candidate>();
        Candidate* c = candidate.get();
        LeaderElectionOptions options;
        options.name = lease_;
        options.namespace_name = "default";
        options.identity = identity;
        options.lease_duration = lease_duration;
        options.renew_deadline = 2s;
        options.retry_period = 500ms;
        options.release_on_cancel = release_on_cancel;
        options.registry = c->registry.get();
        options.callbacks.on_started_leading = [c](Context) { ++c->started; };
        options.callbacks.on_stopped_leading = [c] { ++c->stopped; };
        StatusOr<std::unique_ptr<LeaderElector>> elector =
            LeaderElector::New(cluster_->GetAPIReader(), std::move(options));
        EXPECT_TRUE(elector.Ok()) << elector.GetStatus();
        if (!elector.Ok())
            return nullptr;
        c->elector = std::move(elector).Value();
        boost::asio::co_spawn(io_, c->elector->Run(c->ctx), [c](std::exception_ptr, Status status) {
            c->result = status;
            c->done = true;
        });
        return candidate;
    }

    static void Stop(Candidate& candidate) {
        candidate.ctx.Cancel();
        ASSERT_TRUE(Eventually([&] { return candidate.done.load(); }));
    }

    api::Lease ReadLease() {
        api::Lease lease;
        const Status status =
            Run(cluster_->GetAPIReader().Get(ctrl::testing::TestContext(), ObjectKey("default", lease_), lease));
        EXPECT_TRUE(status.Ok()) << status;
        return lease;
    }

    // Waits until exactly one of a and b leads and returns it (null when that never happens).
    static Candidate* WaitForOneLeader(Candidate& a, Candidate& b) {
        Candidate* leader = nullptr;
        Eventually([&] {
            const bool a_leads = a.elector->IsLeader(), b_leads = b.elector->IsLeader();
            leader = a_leads != b_leads ? (a_leads ? &a : &b) : nullptr;
            return leader != nullptr;
        });
        return leader;
    }

    std::string lease_ = UniqueName("election");
};

TEST_F(LeaderElectionTest, ExactlyOneLeadsAndTheGaugeSaysWhich) {
    auto a = Start("candidate-a", 3s, true);
    auto b = Start("candidate-b", 3s, true);
    ASSERT_TRUE(a && b);
    Candidate* leader = WaitForOneLeader(*a, *b);
    ASSERT_NE(leader, nullptr);
    Candidate* follower = leader == a.get() ? b.get() : a.get();
    // Several renewals later, still the same one, and the follower knows who leads.
    std::this_thread::sleep_for(2s);
    EXPECT_TRUE(leader->elector->IsLeader());
    EXPECT_FALSE(follower->elector->IsLeader());
    EXPECT_TRUE(Eventually([&] { return follower->elector->GetLeader() == leader->elector->Identity(); }));
    EXPECT_EQ(leader->started, 1);
    EXPECT_EQ(follower->started, 0);
    EXPECT_TRUE(leader->elector->Elected().HasBeenNotified());
    EXPECT_FALSE(follower->elector->Elected().HasBeenNotified());
    EXPECT_EQ(leader->Gauge(lease_), 1);
    EXPECT_EQ(follower->Gauge(lease_), 0);
    const api::Lease lease = ReadLease();
    EXPECT_EQ(lease.HolderIdentity(), leader->elector->Identity());
    EXPECT_EQ(lease.LeaseDurationSeconds(), 3);
    EXPECT_EQ(lease.LeaseTransitions(), 0);
    Stop(*a);
    Stop(*b);
}

// Release on cancel: with a 60 s lease, only a release lets the other lead before the test's
// 30 s wait ends.
TEST_F(LeaderElectionTest, CancellingTheLeaderWithReleaseHandsOverAtOnce) {
    auto a = Start("candidate-a", 60s, true);
    ASSERT_TRUE(a);
    ASSERT_TRUE(Eventually([&] { return a->elector->IsLeader(); }));
    auto b = Start("candidate-b", 60s, true);
    ASSERT_TRUE(b);
    ASSERT_TRUE(Eventually([&] { return b->elector->GetLeader() == "candidate-a"; }));

    const auto cancelled = Clock::now();
    Stop(*a);
    EXPECT_TRUE(a->result.Ok()) << a->result;
    EXPECT_EQ(a->stopped, 1);
    EXPECT_EQ(a->Gauge(lease_), 0);
    ASSERT_TRUE(Eventually([&] { return b->elector->IsLeader(); }));
    const auto took = std::chrono::duration<double>(Clock::now() - cancelled).count();
    std::printf(
        "[ figures ] release on cancel: the other led %.2f s after the cancel (bound RetryPeriod + 1 s = 1.5 s)\n",
        took);
    // Run sets the gauge right after the winning write that IsLeader reflects.
    EXPECT_TRUE(Eventually([&] { return b->Gauge(lease_) == 1; }));
    const api::Lease lease = ReadLease();
    EXPECT_EQ(lease.HolderIdentity(), "candidate-b");
    EXPECT_EQ(lease.LeaseTransitions(), 1);
    Stop(*b);
}

// Without a release (as when the process is killed), the other waits for the lease to expire
// on its own clock: not before LeaseDuration less what it may have seen late, and then takes over.
TEST_F(LeaderElectionTest, ALeaderStoppedWithoutReleaseIsReplacedAfterTheLeaseExpires) {
    auto a = Start("candidate-a", 3s, false);
    ASSERT_TRUE(a);
    ASSERT_TRUE(Eventually([&] { return a->elector->IsLeader(); }));
    auto b = Start("candidate-b", 3s, false);
    ASSERT_TRUE(b);
    ASSERT_TRUE(Eventually([&] { return b->elector->GetLeader() == "candidate-a"; }));

    const auto killed = Clock::now();
    Stop(*a);
    EXPECT_EQ(ReadLease().HolderIdentity(), "candidate-a") << "no release";
    ASSERT_TRUE(Eventually([&] { return b->elector->IsLeader(); }));
    const auto took = std::chrono::duration<double>(Clock::now() - killed).count();
    std::printf(
        "[ figures ] no release: the other led %.2f s after the stop (bound LeaseDuration + RetryPeriod + "
        "jitter = 3 + 0.5 + 0.6 s)\n",
        took);
    // b last saw a renewal at most one jittered retry period (1.1 s) before the stop.
    EXPECT_GE(took, 3.0 - 1.1 - 0.1) << "the lease was respected until it expired";
    EXPECT_EQ(ReadLease().LeaseTransitions(), 1);
    Stop(*b);
}

TEST_F(LeaderElectionTest, ALeaderWhoseLeaseIsOverwrittenStepsDown) {
    auto a = Start("candidate-a", 3s, false);
    ASSERT_TRUE(a);
    ASSERT_TRUE(Eventually([&] { return a->Gauge(lease_) == 1; }));

    // Someone else writes itself in as holder (a fresh renewTime: valid for 3 s on a's clock).
    client::Client& direct = cluster_->GetAPIReader();
    const Status overwritten = Run([&]() -> Task<Status> {
        for (int attempt = 0; attempt < 10; ++attempt) {
            api::Lease lease;
            CTRL_CO_RETURN_IF_ERROR(
                co_await direct.Get(ctrl::testing::TestContext(), ObjectKey("default", lease_), lease));
            lease.SetHolderIdentity("intruder");
            lease.SetRenewTime(std::chrono::system_clock::now());
            const Status updated = co_await direct.Update(ctrl::testing::TestContext(), lease);
            if (!IsConflict(updated))
                co_return updated;
        }
        co_return ConflictError("kept conflicting with the leader's renewals");
    }());
    ASSERT_TRUE(overwritten.Ok()) << overwritten;
    ASSERT_TRUE(Eventually([&] { return a->done.load(); }));
    EXPECT_FALSE(a->result.Ok());
    EXPECT_NE(a->result.Message().find("leader election lost"), std::string::npos) << a->result;
    EXPECT_EQ(a->stopped, 1);
    EXPECT_FALSE(a->elector->IsLeader());
    EXPECT_EQ(a->elector->GetLeader(), "intruder");
    EXPECT_EQ(a->Gauge(lease_), 0);
}

// Issue 17, part 5: a Lease left by a holder that died long ago (holderIdentity set, renewTime an
// hour old, a short leaseDurationSeconds) is taken over once its duration has passed on the
// candidate's own clock, counted from when it first read the record (client-go's rule: the
// renewTime of another machine's clock is not trusted) — not at once, and not never.
TEST_F(LeaderElectionTest, ALeaseLeftByADeadHolderIsAcquiredAfterItsDuration) {
    constexpr int64_t kDeadLeaseSeconds = 3;
    const auto hour_ago = std::chrono::system_clock::now() - std::chrono::hours(1);
    api::Lease dead;
    dead.SetNamespace("default");
    dead.SetName(lease_);
    dead.SetHolderIdentity("dead-holder-7f9c");
    dead.SetLeaseDurationSeconds(kDeadLeaseSeconds);
    dead.SetAcquireTime(hour_ago - std::chrono::hours(1));
    dead.SetRenewTime(hour_ago);
    dead.SetLeaseTransitions(4);
    client::Client& direct = cluster_->GetAPIReader();
    const Status created = Run(direct.Create(ctrl::testing::TestContext(), dead));
    ASSERT_TRUE(created.Ok()) << created;

    const auto started = Clock::now();
    auto a = Start("candidate-a", 10s, true);
    ASSERT_TRUE(a);
    ASSERT_TRUE(Eventually([&] { return a->elector->IsLeader(); }))
        << "the dead holder's Lease was never taken over; leader seen: " << a->elector->GetLeader();
    const auto took = std::chrono::duration<double>(Clock::now() - started).count();
    std::printf("[ figures ] dead holder: acquired %.2f s after the candidate started (leaseDurationSeconds %d)\n",
                took, static_cast<int>(kDeadLeaseSeconds));
    EXPECT_GE(took, kDeadLeaseSeconds - 0.2) << "the Lease was taken before its duration passed on our clock";
    // IsLeader turns true when the Lease is written; OnStartedLeading runs just after, on the loop,
    // and Elected is notified once it has returned.
    ASSERT_TRUE(Eventually([&] { return a->elector->Elected().HasBeenNotified(); }));
    EXPECT_EQ(a->started, 1);
    EXPECT_TRUE(Eventually([&] { return a->Gauge(lease_) == 1; }));
    const api::Lease lease = ReadLease();
    EXPECT_EQ(lease.HolderIdentity(), "candidate-a");
    EXPECT_EQ(lease.LeaseTransitions(), 5) << "a takeover counts a transition";
    EXPECT_EQ(lease.LeaseDurationSeconds(), 10);
    ASSERT_TRUE(lease.AcquireTime().has_value());
    EXPECT_GT(*lease.AcquireTime(), hour_ago + std::chrono::minutes(30)) << "the acquire time is the takeover's";
    Stop(*a);
}

}  // namespace
}  // namespace ctrl::leaderelection
