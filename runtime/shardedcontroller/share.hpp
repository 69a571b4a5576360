#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "ctrl/core/notification.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/reconcile/request.hpp"
#include "ctrl/sharding/hash_range.hpp"
#include "ctrl/sharding/shard_filter.hpp"

namespace ctrl::shardedcontroller {

// The buckets one member of a shard ring reconciles now, and the reconciles under way in each:
// what keeps two members off one object. A reconcile starts only in an owned bucket (Enter); a
// release stops admitting the bucket's requests and returns once none of them is under way, so
// the ring gives the bucket up only after its last reconcile here ended.
//
// A Request names only namespace and name. The share remembers the bucket of each object of an
// owned bucket the controller's primary source brought (Remember). With ShardKey::kNamespace a
// request's bucket follows from its namespace; with kUid it is the remembered one, and a request for
// an object it never saw is not this member's.
// Thread-safe.
class Share final {
  public:
    Share(sharding::BucketSpace space, sharding::ShardKey key);

    // The primary source's objects as they come: their buckets by key. A deleted object's
    // is kept until its reconcile after the delete has run.
    void Remember(const Object& object);
    void RememberDeleted(const Object& object);

    // Admits a reconcile of request: its bucket when the bucket is owned (counted under way until
    // Leave), nothing when it is not (the request is another member's, or no longer this one's).
    std::optional<int> Enter(const reconcile::Request& request);
    // The reconcile Enter admitted in bucket has ended.
    void Leave(const reconcile::Request& request, int bucket);

    // These buckets are this member's from now on.
    void Acquire(const std::vector<int>& buckets);
    // Stops admitting these buckets' requests; returns once none of them is under way, with the
    // keys of the objects of those buckets it remembered, which it forgets (they leave this
    // member's share).
    Task<std::vector<ObjectKey>> Release(std::vector<int> buckets);

    // The owned buckets as a filter of objects (what the cache is told to hold).
    sharding::ShardFilter Filter() const;
    std::vector<int> Owned() const;
    sharding::ShardKey Key() const { return key_; }
    const sharding::BucketSpace& Space() const { return space_; }

  private:
    struct Remembered {
        int bucket = 0;
        bool deleted = false;
    };

    int BucketOf(const Object& object) const;
    bool DrainedLocked(const std::vector<int>& buckets) const;

    const sharding::BucketSpace space_;
    const sharding::ShardKey key_;

    mutable std::mutex mu_;
    std::vector<bool> owned_;
    std::vector<int> in_flight_;  // by bucket
    std::map<ObjectKey, Remembered> remembered_;
    // Notified (and replaced) when a reconcile in a bucket that is not owned ends.
    std::shared_ptr<Notification> left_unowned_ = std::make_shared<Notification>();
};

}  // namespace ctrl::shardedcontroller
