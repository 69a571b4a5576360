#pragma once

// Members of a sharded test controller in one process, for the sharded controller tests: each a
// cluster::Cluster of its own (its rest client's transport counts body bytes and can be cut, as a
// killed process's would be), a ClusterHost, and a controller built with ShardedBy that stamps each
// ConfigMap of the run (label ctrl.io/shard-test=<run>) with the member's id in the annotation
// ctrl.io/member. Every reconcile's interval is recorded per object and member.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/cache/reflector.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/controller/controller.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/shardedcontroller/sharded.hpp"
#include "test/support/byte_counting_transport.hpp"
#include "test/support/cluster_host.hpp"

namespace ctrl::testing {

inline constexpr int kShardBuckets = 64;

// Every reconcile's [start, end) by object and member. Thread-safe.
class ReconcileIntervals {
  public:
    using Clock = std::chrono::steady_clock;

    // Returns the interval's index, for End.
    std::size_t Begin(const std::string& key, const std::string& member);
    void End(const std::string& key, std::size_t index);
    // "ns/name: member-a [..] and member-b [..]" for every pair of two members' intervals of one
    // object that overlap (an interval that never ended lasts forever).
    std::vector<std::string> Overlaps() const;
    // The first start of a reconcile of key after since by a member other than except (max() if none).
    Clock::time_point FirstStartAfter(const std::string& key, Clock::time_point since, const std::string& except) const;
    int64_t Count() const;

  private:
    struct Interval {
        std::string member;
        Clock::time_point start;
        Clock::time_point end = Clock::time_point::max();
    };
    mutable std::mutex mu_;
    std::map<std::string, std::vector<Interval>> by_key_;
    int64_t count_ = 0;
};

// How a member reconciles: stamps each ConfigMap with its id (busy 0), or, to measure throughput,
// waits busy (as a call to a slow external API would) and requeues the object 1 ms later.
struct MemberOptions {
    bool release_on_stop = true;
    std::chrono::milliseconds busy{0};
    int workers = 2;
};

// One member: what it runs and what it counts.
struct ShardMember {
    std::string id;
    metrics::Registry registry;
    std::shared_ptr<ReceivedBytes> bytes = std::make_shared<ReceivedBytes>();
    std::shared_ptr<std::atomic<bool>> cut = std::make_shared<std::atomic<bool>>(false);
    std::unique_ptr<cluster::Cluster> cluster;
    std::unique_ptr<ClusterHost> host;
    std::shared_ptr<const shardedcontroller::Sharded> sharded;
    Context ctx = Context::WithCancel(Context::Background());
    std::atomic<bool> done{false};
    bool killed = false;

    std::vector<int> Owned() const { return sharded->GetRing().Owned(); }
};

// What the members' watches received while every object of the run changed once, beside an
// unsharded cache of the same objects.
struct WatchTraffic {
    std::map<std::string, int64_t> by_member;
    int64_t unsharded = 0;
};

// The members of one run, on one io_context (two threads), against one control plane.
class ShardMembers {
  public:
    using Clock = std::chrono::steady_clock;

    ShardMembers(const std::string& kubeconfig, std::string run);
    ~ShardMembers();

    static std::string UniqueName(const std::string& name);

    // namespaces namespaces of per_namespace ConfigMaps (~1 KB each) labelled for the run.
    Status CreateConfigMaps(int namespaces, int per_namespace);
    // Starts a member on the run's ring (leases of 3 s, renew deadline 2 s, retry 0.5 s).
    Status Join(const std::string& id, MemberOptions options = {});
    // Cuts the member's transport (no request leaves it) and stops it, as a killed process.
    void Kill(const std::string& id);
    // Stops every member still running (gracefully).
    void StopAll();
    const ShardMember& Get(const std::string& id) const;

    // Whether the live members agree on the ring (each sees them all), their buckets partition the
    // 64, each one's controller reconciles what its ring owns, and every ConfigMap on the server
    // carries the id of its bucket's owner.
    bool Settled(bool stamped = true);
    std::string Describe();
    // Whether the member's cache holds exactly the run's ConfigMaps of its buckets.
    bool CacheHoldsExactlyItsShare(const ShardMember& member);
    // The member's ConfigMap informers' counters, summed.
    cache::ReflectorStats StatsOf(const std::string& id);
    // Who owns each bucket (live members).
    std::map<int, std::string> Owners() const;
    // When the last of buckets was owned again after a kill at killed: per bucket, the first
    // reconcile of one of its objects by a live member after killed; the latest of those.
    Clock::time_point OwnedAgainAt(const std::vector<int>& buckets, Clock::time_point killed) const;
    // Whether every ConfigMap of buckets was reconciled by a live member after since.
    bool EveryObjectReconciledSince(const std::vector<int>& buckets, Clock::time_point since) const;
    // Changes every ConfigMap once and counts what each member's watches and an unsharded cache's
    // received meanwhile.
    WatchTraffic MeasureWatchTraffic();
    std::vector<std::string> Overlaps() const { return intervals_.Overlaps(); }
    int64_t Reconciles() const { return intervals_.Count(); }

  private:
    template <typename T>
    T Run(Task<T> task) {
        return RunOn(io_.get_executor(), std::move(task));
    }
    std::shared_ptr<reconcile::Reconciler> Stamper(ShardMember& member);
    std::shared_ptr<reconcile::Reconciler> Busy(ShardMember& member, std::chrono::milliseconds busy);
    std::vector<const ShardMember*> Live() const;
    ShardMember* Find(const std::string& id) const;
    std::unique_ptr<cluster::Cluster> NewCluster(ShardMember* member);

    rest::Config config_;
    const std::string run_;
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
    std::thread loop_[2];
    std::unique_ptr<cluster::Cluster> admin_;
    std::vector<std::string> namespaces_;
    std::map<std::string, std::string> uids_;  // ConfigMap key -> uid
    std::vector<std::unique_ptr<ShardMember>> members_;
    ReconcileIntervals intervals_;
};

}  // namespace ctrl::testing
