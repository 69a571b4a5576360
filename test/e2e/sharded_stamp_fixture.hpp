#pragma once

// The sharding e2e test's fixture: ConfigMaps made through the admin's client, replicas of
// ctrl-shard-stamper as child processes on one ring (leases of 5 s), the ring's owners read from
// its Leases, the replicas' /metrics, and their shared intervals file.

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/cluster/cluster.hpp"
#include "test/support/control_plane.hpp"
#include "test/support/process.hpp"
#include "test/support/shard_gate.hpp"

namespace ctrl::e2e {

inline constexpr int kBuckets = 64;
inline constexpr auto kStamperLease = std::chrono::seconds(5);

// One ctrl-shard-stamper process.
struct Replica {
    std::string id;
    testing::ChildProcess process;
    std::string metrics_url;
    bool killed = false;
    std::chrono::steady_clock::time_point killed_at{};
};

class ShardedStampFixture : public ::testing::Test {
  protected:
    using Clock = std::chrono::steady_clock;

    void SetUp() override;
    void TearDown() override;

    // The control plane the test runs against: the binary's (gate on), or one of its own, started
    // with testing::ShardTestOptions (the replicas authenticate as testing::kShardOperatorUser).
    // The admin's cache watches the run's ConfigMaps from here on (Settled reads it).
    void Use(testing::ControlPlane& control_plane);
    bool UseOwnControlPlane(testing::ControlPlane::Options options);

    // namespaces x per_namespace ConfigMaps (~1 KB) labelled ctrl.io/shard-test=<run>, made 16 at
    // a time; their uids are kept.
    Status CreateConfigMaps(int namespaces, int per_namespace);
    bool StartReplica(const std::string& id);
    // A replica without the ring, caching every ConfigMap of the run: the unsharded reference.
    bool StartUnsharded();
    void StopAll();

    // Whether `replicas` live Leases of the ring split the 64 buckets (each once) and every
    // ConfigMap carries its bucket's owner's id: first in the admin's cache (a watch), then, when
    // the cache says so, in a list from the server.
    bool Settled(int replicas);
    std::string Describe();
    // Bucket -> owner, from the ring's Leases.
    std::map<int, std::string> Owners();
    // How many ConfigMaps of the run fall in the buckets the replica's Lease claims.
    int ObjectsOwnedBy(const std::string& id);
    // The replica's ctrl_informer_objects for ConfigMaps, summed; -1 when /metrics does not answer.
    double InformerObjects(const std::string& id);
    double Metric(const std::string& id, const std::string& name);
    int LogOccurrences(const std::string& id, const std::string& text);

    // Starts the unsharded replica, changes 2,000 ConfigMaps and checks that each replica's watches
    // received about a third of the unsharded replica's bytes meanwhile.
    void ExpectWatchTrafficAboutAThird(const std::vector<std::string>& ids);
    // SIGKILLs the replica; the survivors' Leases claim its buckets within its lease plus 5 s, and
    // every ConfigMap of those buckets is reconciled again by a survivor.
    void ExpectKilledReplicasBucketsTakenOver(const std::string& id, int survivors);
    // No two replicas' reconciles of one ConfigMap overlapped (the intervals file).
    void ExpectNoOverlaps();

  private:
    template <typename T>
    T Run(Task<T> task);
    Replica* Find(const std::string& id);
    bool Start(const std::string& id, std::vector<std::string> extra);
    // Every ConfigMap of buckets reconciled by someone other than `except` after since.
    bool ReconciledSince(const std::vector<int>& buckets, Clock::time_point since, const std::string& except);

    // Whether every listed ConfigMap carries its bucket's owner's id.
    bool AllStamped(const ObjectList& list, const std::map<int, std::string>& owners);

    std::unique_ptr<testing::ControlPlane> own_control_plane_;
    std::string kubeconfig_;  // the replicas' (testing::kShardOperatorUser)
    std::string run_;
    std::string dir_;
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
    std::thread loop_;
    std::unique_ptr<cluster::Cluster> admin_;
    Context admin_cache_ = Context::WithCancel(Context::Background());
    std::map<std::string, std::string> uids_;  // "ns/name" -> uid
    std::vector<std::unique_ptr<Replica>> replicas_;
};

}  // namespace ctrl::e2e
