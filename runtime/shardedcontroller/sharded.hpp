#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/cache/informers.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/handler/handler.hpp"
#include "ctrl/reconcile/reconciler.hpp"
#include "ctrl/shardedcontroller/share.hpp"
#include "ctrl/sharding/ring.hpp"
#include "ctrl/source/source.hpp"

namespace ctrl::shardedcontroller {

// How a controller is sharded (builder::Builder::ShardedBy). Replicas that run the same
// controller with the same ring split its primary objects between them.
struct Options {
    // The ring: its name and namespace, this member's identity (unique, e.g. the pod's name), the
    // bucket count and the Lease timings (sharding::RingOptions' defaults). Its callbacks are set
    // here; leave them empty.
    sharding::RingOptions ring{};
    // What an object's bucket is the hash of: its uid (the default; every object of a namespace may
    // go to a different member) or its namespace (a namespace's objects, of every kind, go to one
    // member).
    sharding::ShardKey key = sharding::ShardKey::kUid;
    // Whether the cache holds only this member's share of the primary kind (the default: its
    // memory and watch traffic are a share's). Set false when something else in the process needs
    // every object of the kind from the same cache (another controller watches it, a reader lists
    // it): the cache then holds every object and the share is kept by what is reconciled only.
    bool narrow_cache = true;
    // Called once a release has drained, with the keys of the primary objects of the released
    // buckets this member saw: for a reconciler to drop what it keeps per object (a gauge per
    // object would otherwise be reported by two members). Default: none.
    std::function<void(const std::vector<ObjectKey>&)> on_released{};
    // Reads and writes the ring's Leases: a client that goes to the API server (not the cache's
    // reader). Required; it must outlive the controller.
    client::Client* client = nullptr;
};

// One controller's membership of a shard ring: the Ring, the Share it keeps, and what the builder
// puts around the controller: the reconciler (a request outside the share is dropped), the
// primary source's handler (it tells the share each object's bucket), and a source that runs the
// ring while the controller runs. As the ring hands buckets over, the cache is told the share
// (cache::Informers::SetShard), so the primary kind's informers hold only this member's objects;
// the informers' relist brings the gained buckets' objects as creates.
class Sharded final : public std::enable_shared_from_this<Sharded> {
  public:
    // BadRequest for missing or inconsistent options, or informers that cannot shard.
    // Sets the primary kind's shard to nothing until the ring gives this member buckets.
    static StatusOr<std::shared_ptr<Sharded>> New(Options options, cache::Informers& informers,
                                                  GroupVersionKind primary, bool metadata_only);

    std::shared_ptr<reconcile::Reconciler> WrapReconciler(std::shared_ptr<reconcile::Reconciler> reconciler);
    std::shared_ptr<handler::EventHandler> WrapPrimaryHandler(std::shared_ptr<handler::EventHandler> handler);
    // Runs the ring from the controller's start until its stop (after which it released its
    // buckets and deleted its Lease, unless RingOptions::release_on_stop is false).
    std::shared_ptr<source::Source> RingSource();
    // The controller's queue and executor, where gained buckets' cached objects are queued
    // without narrow_cache (RingSource's Start sets them, before the ring runs).
    void Attach(handler::RequestQueue* queue, boost::asio::any_io_executor executor) {
        executor_ = std::move(executor);
        queue_.store(queue);
    }

    Share& GetShare() { return share_; }
    const Share& GetShare() const { return share_; }
    sharding::Ring& GetRing() { return *ring_; }
    const sharding::Ring& GetRing() const { return *ring_; }

  private:
    Sharded(cache::Informers& informers, GroupVersionKind primary, bool metadata_only, const Options& options,
            sharding::BucketSpace space);
    void Acquired(const std::vector<int>& buckets);
    Task<void> Releasing(std::vector<int> buckets);
    void SetCacheShard();
    // Without narrow_cache: the cached objects of buckets, remembered and queued (at low priority,
    // as an initial list), since no relist brings them.
    void EnqueueCached(const std::vector<int>& buckets);
    static Task<void> EnqueueCachedOf(std::shared_ptr<Sharded> self, handler::RequestQueue* queue,
                                      std::vector<int> buckets);

    cache::Informers& informers_;
    const GroupVersionKind primary_;
    const bool metadata_only_;
    const bool narrow_cache_;
    const std::function<void(const std::vector<ObjectKey>&)> on_released_;
    Share share_;
    std::unique_ptr<sharding::Ring> ring_;
    boost::asio::any_io_executor executor_;
    std::atomic<handler::RequestQueue*> queue_{nullptr};  // the controller's, once the ring runs
};

}  // namespace ctrl::shardedcontroller
