#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/sharding/hash_range.hpp"

namespace ctrl::sharding {

// One member's share of a kind: the buckets it owns, as the API server's shardSelector and as a
// predicate over objects. The predicate is what a client applies itself when the server ignores
// the selector (the ShardedListAndWatch gate off: the list then carries no metadata.shardInfo).
// Owning every bucket selects everything (an empty selector, no parameter sent); owning none
// selects nothing.
class ShardFilter {
  public:
    // Every object (no sharding).
    ShardFilter();
    ShardFilter(BucketSpace space, ShardKey key, const std::vector<int>& owned);

    // Whether an object of this uid (ShardKey::kUid) or namespace (kNamespace) is in the share.
    bool KeepsValue(std::string_view value) const;
    // KeepsValue of the object's uid or namespace.
    bool Keeps(const Object& object) const;

    // The shardSelector parameter: "" when every bucket is owned (send none). Also "" when no
    // bucket is owned, which no selector can say: check SelectsNothing() first and do not list.
    const std::string& Selector() const { return selector_; }
    bool SelectsEverything() const { return everything_; }
    bool SelectsNothing() const { return owned_count_ == 0; }
    ShardKey Key() const { return key_; }
    // The owned buckets, ascending.
    std::vector<int> Owned() const;

  private:
    BucketSpace space_;
    ShardKey key_;
    std::vector<bool> owned_;  // by bucket
    int owned_count_ = 0;
    bool everything_ = false;
    std::string selector_;
};

}  // namespace ctrl::sharding
