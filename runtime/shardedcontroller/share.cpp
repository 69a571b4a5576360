#include "ctrl/shardedcontroller/share.hpp"

#include <utility>

#include "ctrl/sharding/bucket_list.hpp"

namespace ctrl::shardedcontroller {

Share::Share(sharding::BucketSpace space, sharding::ShardKey key)
    : space_(space),
      key_(key),
      owned_(static_cast<std::size_t>(space.Count()), false),
      in_flight_(static_cast<std::size_t>(space.Count()), 0) {}

int Share::BucketOf(const Object& object) const {
    return space_.BucketOfValue(key_ == sharding::ShardKey::kUid ? object.Uid() : object.Namespace());
}

void Share::Remember(const Object& object) {
    const int bucket = BucketOf(object);
    std::lock_guard lock(mu_);
    if (!owned_[static_cast<std::size_t>(bucket)])
        return;  // an event of a bucket given up, before the cache narrowed
    remembered_[ObjectKey(std::string(object.Namespace()), std::string(object.Name()))] = Remembered{bucket, false};
}

void Share::RememberDeleted(const Object& object) {
    const int bucket = BucketOf(object);
    std::lock_guard lock(mu_);
    if (!owned_[static_cast<std::size_t>(bucket)])
        return;
    remembered_[ObjectKey(std::string(object.Namespace()), std::string(object.Name()))] = Remembered{bucket, true};
}

std::optional<int> Share::Enter(const reconcile::Request& request) {
    std::lock_guard lock(mu_);
    int bucket = 0;
    if (key_ == sharding::ShardKey::kNamespace) {
        bucket = space_.BucketOfValue(request.namespace_name);
    } else {
        const auto it = remembered_.find(request.NamespacedName());
        if (it == remembered_.end())
            return std::nullopt;
        bucket = it->second.bucket;
    }
    if (!owned_[static_cast<std::size_t>(bucket)])
        return std::nullopt;
    ++in_flight_[static_cast<std::size_t>(bucket)];
    return bucket;
}

void Share::Leave(const reconcile::Request& request, int bucket) {
    std::shared_ptr<Notification> wake;
    {
        std::lock_guard lock(mu_);
        --in_flight_[static_cast<std::size_t>(bucket)];
        if (const auto it = remembered_.find(request.NamespacedName());
            it != remembered_.end() && it->second.deleted && it->second.bucket == bucket)
            remembered_.erase(it);  // reconciled after its delete: nothing more comes for it
        if (!owned_[static_cast<std::size_t>(bucket)])
            wake = std::exchange(left_unowned_, std::make_shared<Notification>());
    }
    if (wake)
        wake->Notify();
}

void Share::Acquire(const std::vector<int>& buckets) {
    std::lock_guard lock(mu_);
    for (const int bucket : buckets)
        owned_[static_cast<std::size_t>(bucket)] = true;
}

bool Share::DrainedLocked(const std::vector<int>& buckets) const {
    for (const int bucket : buckets) {
        if (in_flight_[static_cast<std::size_t>(bucket)] > 0)
            return false;
    }
    return true;
}

Task<std::vector<ObjectKey>> Share::Release(std::vector<int> buckets) {
    std::vector<bool> released(static_cast<std::size_t>(space_.Count()), false);
    std::vector<ObjectKey> forgotten;
    std::shared_ptr<Notification> left;
    {
        std::lock_guard lock(mu_);
        for (const int bucket : buckets) {
            owned_[static_cast<std::size_t>(bucket)] = false;
            released[static_cast<std::size_t>(bucket)] = true;
        }
        for (auto it = remembered_.begin(); it != remembered_.end();) {
            if (!released[static_cast<std::size_t>(it->second.bucket)]) {
                ++it;
                continue;
            }
            forgotten.push_back(it->first);
            it = remembered_.erase(it);
        }
        if (DrainedLocked(buckets))
            co_return forgotten;
        left = left_unowned_;
    }
    for (;;) {
        (void)co_await left->Wait(Context::Background());
        std::lock_guard lock(mu_);
        if (DrainedLocked(buckets))
            co_return forgotten;
        left = left_unowned_;
    }
}

sharding::ShardFilter Share::Filter() const {
    return sharding::ShardFilter(space_, key_, Owned());
}

std::vector<int> Share::Owned() const {
    std::lock_guard lock(mu_);
    return sharding::BucketsOf(owned_);
}

}  // namespace ctrl::shardedcontroller
