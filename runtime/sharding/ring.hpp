#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ctrl/client/client.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/sharding/ring_metrics.hpp"
#include "ctrl/sharding/shard_filter.hpp"

namespace ctrl::sharding {

// What a Ring tells the controller it serves. Both run on the ring's coroutine.
struct RingCallbacks {
    // These buckets are this member's now: start reconciling their objects. Called after the
    // member's Lease claims them and a fresh read showed no other live member claiming any.
    std::function<void(const std::vector<int>& buckets)> on_acquired;
    // These buckets stop being this member's: stop taking their objects and return once none is
    // being reconciled any more. The member's Lease still claims them until this returns, so
    // nobody else starts on them before. Default: returns at once.
    std::function<Task<void>(const std::vector<int>& buckets)> on_releasing;
};

// The options of a Ring. Requires lease_duration > renew_deadline > retry_period > 0.
struct RingOptions {
    // The ring's name: every member's Lease carries the label ctrl.io/shard-ring=<ring>. Required.
    std::string ring;
    // Where the members' Leases live. Required.
    std::string namespace_name;
    // This member (its Lease's holderIdentity), unique in the ring, e.g. the pod's name. Required.
    std::string identity;
    // The hash space cut into this many buckets (a power of two); every member must use the same.
    int buckets = 64;
    // As in leader election: how long a member's claims last after its last renewal, as the others
    // measure it on their own clocks; how long a member keeps retrying a failed renewal before it
    // drops every bucket; the pause between rounds.
    std::chrono::milliseconds lease_duration{15000};
    std::chrono::milliseconds renew_deadline{10000};
    std::chrono::milliseconds retry_period{2000};
    // When Run's ctx ends: release every bucket (on_releasing) and delete the Lease, so the others
    // take over at their next round instead of after lease_duration. Default true; false leaves
    // the Lease to expire, as a crashed member would.
    bool release_on_stop = true;
    RingCallbacks callbacks{};
    // Where the ctrl_shard_* metrics go. Default: metrics::DefaultRegistry().
    metrics::Registry* registry = nullptr;
    // The local clock that times other members' expiry. Default: steady_clock::now.
    std::function<std::chrono::steady_clock::time_point()> now{};
};

// One member of a shard ring: replicas of one controller that split its objects by the hash of
// their uid (or namespace) into buckets, each bucket owned by one member at a time.
//
// Every retry_period a member renews its own Lease (named after the ring and its identity, the
// buckets it claims in the annotation ctrl.io/shard-buckets), reads the ring's Leases, takes as
// live the members whose Lease it saw renewed within lease_duration (on its own clock, as leader
// election does), and computes the assignment (AssignBuckets) of the live members. It releases
// the buckets it claims and is not assigned (on_releasing, then a Lease without them) and, once
// every live member computed the same membership in its last round (each Lease names it), claims
// the buckets it is assigned that no live member claims: it writes the claim, reads the Leases
// again, and keeps only the buckets no other live member claims in that read; then
// on_acquired. The assignment keeps what members claim within their shares (AssignBuckets), so a
// join or a leave moves only what must move. Two members cannot both keep one bucket: each read follows its own write,
// so the later of the two reads sees the other's claim (the API server's reads are linearizable). A member whose
// renewals fail for renew_deadline drops every bucket before the others, waiting lease_duration from its last renewal
// they saw, take them (docs/decisions.md, decision 78).
//
// client must read from the API server (a direct client, not the cache's reader).
class Ring final {
  public:
    // BadRequest for missing or inconsistent options.
    static StatusOr<std::unique_ptr<Ring>> New(client::Client& client, RingOptions options);
    Ring(const Ring&) = delete;
    Ring& operator=(const Ring&) = delete;

    // Takes part in the ring until ctx ends; returns OK then (after releasing, with
    // release_on_stop: on_releasing, then the Lease deleted within renew_deadline, or left to
    // expire). A failed round is logged and retried.
    Task<Status> Run(Context ctx);

    // The buckets this member owns now (acquired and not released), ascending.
    std::vector<int> Owned() const;
    // Owned() as a filter of objects by key, for informers and event filters.
    ShardFilter Filter(ShardKey key) const;
    // Whether the ring has settled at least once: the members agreed on the membership and this
    // member owned what it is assigned at the end of a round (until then a joining member owns
    // less than its share). A readiness check.
    bool Settled() const { return settled_.load(); }
    // The live members of the last round, this one included, sorted.
    std::vector<std::string> Members() const;
    const std::string& Identity() const { return options_.identity; }
    // The name of this member's Lease: <ring>-<16 hex digits of the identity's hash>.
    const std::string& LeaseName() const { return lease_name_; }

  private:
    // What the last read said of another member.
    struct Peer {
        std::string resource_version;
        std::chrono::steady_clock::time_point observed;  // when resource_version was first seen
        std::chrono::milliseconds duration{};
        std::vector<int> claims;
        int buckets = 0;
        std::string members;  // the membership it computed in its last round (MembersDigest)
    };

    Ring(client::Client& client, RingOptions options);

    Task<Status> Round(Context& ctx);
    // Writes the Lease with claims_ (creating it the first time); records a successful renewal.
    Task<Status> WriteLease(Context& ctx);
    // Reads the ring's Leases into peers_ (members other than this one).
    Task<Status> ReadPeers(Context& ctx);
    // The buckets live peers claim.
    // Also times how long each bucket goes unclaimed (ctrl_shard_bucket_unowned_seconds).
    std::vector<bool> ClaimedByLivePeers();
    std::vector<std::string> LiveMembers() const;
    // Whether every live peer computed the membership this member did (from their Leases).
    bool PeersAgree(const std::vector<std::string>& live) const;
    Task<void> Release(std::vector<int> buckets);
    Task<Status> Acquire(Context& ctx, const std::vector<int>& wanted);
    Task<void> Stop(Context ctx);
    void SetOwned(std::vector<int> owned);

    client::Client& client_;
    RingOptions options_;
    std::string lease_name_;
    BucketSpace space_;
    log::Logger log_;
    RingMetrics metrics_;

    std::vector<int> claims_;     // what this member's Lease says, ascending
    std::string members_digest_;  // of the live members of the last round, written in the Lease
    bool first_round_ = true;     // claims nothing: its Lease announces it first
    bool settled_round_ = false;  // the round just run ended with the members agreed, the share owned
    std::atomic<bool> settled_{false};
    std::string resource_version_;  // of this member's Lease as last written ("" before)
    std::chrono::steady_clock::time_point last_renewal_{};
    std::map<std::string, Peer> peers_;                                 // by identity
    std::vector<std::chrono::steady_clock::time_point> unowned_since_;  // per bucket; max(): owned

    mutable std::mutex mu_;
    std::vector<int> owned_;
    std::vector<std::string> members_;
};

}  // namespace ctrl::sharding
