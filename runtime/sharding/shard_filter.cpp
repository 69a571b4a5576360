#include "ctrl/sharding/shard_filter.hpp"

#include "ctrl/sharding/bucket_list.hpp"

namespace ctrl::sharding {

ShardFilter::ShardFilter() : ShardFilter(*BucketSpace::Make(1), ShardKey::kUid, {0}) {}

ShardFilter::ShardFilter(BucketSpace space, ShardKey key, const std::vector<int>& owned)
    : space_(space), key_(key), owned_(static_cast<std::size_t>(space.Count()), false) {
    for (const int bucket : owned) {
        if (bucket < 0 || bucket >= space_.Count() || owned_[static_cast<std::size_t>(bucket)])
            continue;
        owned_[static_cast<std::size_t>(bucket)] = true;
        ++owned_count_;
    }
    everything_ = owned_count_ == space_.Count();
    if (!everything_)
        selector_ = ShardSelector(space_, key_, Owned());
}

bool ShardFilter::KeepsValue(std::string_view value) const {
    if (everything_)
        return true;
    return owned_[static_cast<std::size_t>(space_.BucketOfValue(value))];
}

bool ShardFilter::Keeps(const Object& object) const {
    if (everything_)
        return true;
    return KeepsValue(key_ == ShardKey::kUid ? object.Uid() : object.Namespace());
}

std::vector<int> ShardFilter::Owned() const {
    return BucketsOf(owned_);
}

}  // namespace ctrl::sharding
