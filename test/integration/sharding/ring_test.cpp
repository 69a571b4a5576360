// Shard ring members against the real control plane: several members in one process, each with
// its own registry, on one ring of Leases. Short durations keep it quick: leases of 3 s, renew
// deadline 2 s, retry period 0.5 s. Every bucket's ownership is recorded from the callbacks, and no
// two members may own one bucket at overlapping times.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/sharding/ring.hpp"
#include "test/support/cluster_fixture.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::sharding {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using Clock = std::chrono::steady_clock;

constexpr int kBuckets = 64;
constexpr auto kLease = 3s;

// Who owned which bucket when: [from, to) per ownership, to = max() while it lasts.
class Ownership {
  public:
    void Acquired(const std::string& member, const std::vector<int>& buckets) {
        std::lock_guard lock(mu_);
        for (const int b : buckets)
            spans_[b].push_back(Span{member, Clock::now(), Clock::time_point::max()});
    }
    void Released(const std::string& member, const std::vector<int>& buckets) {
        std::lock_guard lock(mu_);
        for (const int b : buckets)
            End(member, b);
    }
    // A member that died: whatever it owned ends now.
    void Died(const std::string& member) {
        std::lock_guard lock(mu_);
        for (int b = 0; b < kBuckets; ++b)
            End(member, b);
    }
    // Every pair of spans of one bucket by two members that overlap; empty when none do.
    std::vector<std::string> Overlaps() const {
        std::lock_guard lock(mu_);
        std::vector<std::string> found;
        for (const auto& [bucket, spans] : spans_) {
            for (std::size_t i = 0; i < spans.size(); ++i) {
                for (std::size_t j = i + 1; j < spans.size(); ++j) {
                    const Span& a = spans[i];
                    const Span& b = spans[j];
                    if (a.member != b.member && a.from < b.to && b.from < a.to)
                        found.push_back("bucket " + std::to_string(bucket) + ": " + a.member + " and " + b.member);
                }
            }
        }
        return found;
    }
    // When bucket's current owner took it (max() when none owns it).
    Clock::time_point OwnedSince(int bucket) const {
        std::lock_guard lock(mu_);
        const auto it = spans_.find(bucket);
        if (it == spans_.end())
            return Clock::time_point::max();
        for (const Span& span : it->second) {
            if (span.to == Clock::time_point::max())
                return span.from;
        }
        return Clock::time_point::max();
    }

  private:
    struct Span {
        std::string member;
        Clock::time_point from;
        Clock::time_point to;
    };
    void End(const std::string& member, int bucket) {
        for (Span& span : spans_[bucket]) {
            if (span.member == member && span.to == Clock::time_point::max())
                span.to = Clock::now();
        }
    }

    mutable std::mutex mu_;
    std::map<int, std::vector<Span>> spans_;
};

// One member running in the background.
struct Member {
    std::unique_ptr<Ring> ring;
    std::unique_ptr<metrics::Registry> registry = std::make_unique<metrics::Registry>();
    Context ctx = Context::WithCancel(Context::Background());
    std::atomic<bool> done{false};
};

class RingTest : public ctrl::testing::ClusterFixture {
  protected:
    std::unique_ptr<Member> Join(const std::string& identity, bool release_on_stop = true) {
        auto member = std::make_unique<Member>();
        Member* m = member.get();
        RingOptions options;
        options.ring = ring_;
        options.namespace_name = "default";
        options.identity = identity;
        options.buckets = kBuckets;
        options.lease_duration = kLease;
        options.renew_deadline = 2s;
        options.retry_period = 500ms;
        options.release_on_stop = release_on_stop;
        options.registry = m->registry.get();
        options.callbacks.on_acquired = [this, identity](const std::vector<int>& buckets) {
            ownership_.Acquired(identity, buckets);
        };
        options.callbacks.on_releasing = [this, identity](const std::vector<int>& buckets) -> Task<void> {
            ownership_.Released(identity, buckets);
            co_return;
        };
        StatusOr<std::unique_ptr<Ring>> ring = Ring::New(cluster_->GetAPIReader(), std::move(options));
        EXPECT_TRUE(ring.Ok()) << ring.GetStatus();
        if (!ring.Ok())
            return nullptr;
        m->ring = std::move(ring).Value();
        boost::asio::co_spawn(io_, m->ring->Run(m->ctx), [m](std::exception_ptr, Status) { m->done = true; });
        return member;
    }

    static void Stop(Member& member) {
        member.ctx.Cancel();
        ASSERT_TRUE(Eventually([&] { return member.done.load(); }));
    }

    // Whether the members' Owned() cover every bucket once, in shares that differ by one bucket at
    // most (what the ring settles at: a first member may own everything for a round).
    static bool SplitEvenly(const std::vector<Member*>& members) {
        const std::size_t share = kBuckets / members.size();
        for (const Member* m : members) {
            const std::size_t owned = m->ring->Owned().size();
            if (owned != share && owned != share + 1)
                return false;
        }
        return SplitOnce(members);
    }

    // Whether the members' Owned() cover every bucket once.
    static bool SplitOnce(const std::vector<Member*>& members) {
        std::vector<int> all;
        for (const Member* m : members) {
            const std::vector<int> owned = m->ring->Owned();
            all.insert(all.end(), owned.begin(), owned.end());
        }
        std::sort(all.begin(), all.end());
        if (all.size() != static_cast<std::size_t>(kBuckets))
            return false;
        for (int b = 0; b < kBuckets; ++b) {
            if (all[static_cast<std::size_t>(b)] != b)
                return false;
        }
        return true;
    }

    std::string ring_ = UniqueName("ring");
    Ownership ownership_;
};

TEST_F(RingTest, ThreeMembersSplitTheBucketsEvenlyAndEachBucketHasOneOwner) {
    auto a = Join("member-a");
    auto b = Join("member-b");
    auto c = Join("member-c");
    ASSERT_TRUE(Eventually([&] { return SplitEvenly({a.get(), b.get(), c.get()}); }, 30s));
    for (const Member* m : {a.get(), b.get(), c.get()}) {
        const std::size_t owned = m->ring->Owned().size();
        EXPECT_TRUE(owned == 21 || owned == 22) << m->ring->Identity() << " owns " << owned;
        EXPECT_EQ(m->ring->Members().size(), 3u);
    }
    Stop(*a);
    Stop(*b);
    Stop(*c);
    EXPECT_TRUE(ownership_.Overlaps().empty()) << ownership_.Overlaps().front();
}

// A member that dies keeps its claims until its lease expires; then the others take its buckets.
TEST_F(RingTest, ADeadMembersBucketsAreOwnedAgainWithinTheLeaseDurationPlusFiveSeconds) {
    auto a = Join("member-a");
    auto b = Join("member-b");
    auto c = Join("member-c", /*release_on_stop=*/false);
    ASSERT_TRUE(Eventually([&] { return SplitEvenly({a.get(), b.get(), c.get()}); }, 30s));
    const std::vector<int> orphaned = c->ring->Owned();
    const Clock::time_point killed = Clock::now();
    Stop(*c);
    ownership_.Died("member-c");
    ASSERT_TRUE(Eventually([&] { return SplitEvenly({a.get(), b.get()}); }, kLease + 10s));
    Clock::time_point last = killed;
    for (const int bucket : orphaned)
        last = std::max(last, ownership_.OwnedSince(bucket));
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(last - killed);
    std::printf("ring: %zu buckets of a killed member owned again %lld ms after the kill (lease %lld s)\n",
                orphaned.size(), static_cast<long long>(took.count()),
                static_cast<long long>(std::chrono::seconds(kLease).count()));
    EXPECT_LE(took, kLease + 5s);
    EXPECT_GE(took, kLease - 1s) << "taken before the dead member's lease could have expired";
    Stop(*a);
    Stop(*b);
    EXPECT_TRUE(ownership_.Overlaps().empty()) << ownership_.Overlaps().front();
}

// A member that leaves releases its buckets and deletes its Lease: the others take over at their
// next rounds, and a member that joins gets its share from the others' releases.
TEST_F(RingTest, MembersLeavingAndJoiningHandBucketsOverWithoutOverlap) {
    auto a = Join("member-a");
    auto b = Join("member-b");
    ASSERT_TRUE(Eventually([&] { return SplitEvenly({a.get(), b.get()}); }, 30s));
    auto c = Join("member-c");
    ASSERT_TRUE(Eventually([&] { return SplitEvenly({a.get(), b.get(), c.get()}); }, 30s));
    const Clock::time_point left = Clock::now();
    Stop(*b);
    ASSERT_TRUE(Eventually([&] { return SplitEvenly({a.get(), c.get()}); }, 30s));
    std::printf(
        "ring: a member that left was replaced %lld ms later\n",
        static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - left).count()));
    EXPECT_LT(Clock::now() - left, kLease) << "a graceful leave should not wait for the lease to expire";
    Stop(*a);
    Stop(*c);
    EXPECT_TRUE(ownership_.Overlaps().empty()) << ownership_.Overlaps().front();
}

}  // namespace
}  // namespace ctrl::sharding
