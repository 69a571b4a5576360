#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::sharding {

// What kube-apiserver's shard selector (alpha feature ShardedListAndWatch, Kubernetes 1.36+)
// filters on: the 64-bit FNV-1a hash of an object's field, object.metadata.uid or
// object.metadata.namespace, in half-open ranges [start, end) of [0, 2^64).

// The 64-bit FNV-1a hash of value (Go's hash/fnv New64a), as the API server computes it.
std::uint64_t Fnv1a64(std::string_view value);

// The field a shard selector hashes.
enum class ShardKey { kUid, kNamespace };

// The selector's name for key: "object.metadata.uid" or "object.metadata.namespace".
std::string_view FieldPath(ShardKey key);

// The hash space cut into `count` equal buckets (a power of two, 1 to 65536): bucket b holds the
// hashes whose top log2(count) bits are b. A replica owns buckets; the API server is asked for
// their ranges.
class BucketSpace {
  public:
    // An error naming count unless it is a power of two from 1 to 65536.
    static StatusOr<BucketSpace> Make(int count);

    int Count() const { return count_; }
    // The bucket of a hash.
    int BucketOf(std::uint64_t hash) const;
    // The bucket of an object's field value (its uid or namespace).
    int BucketOfValue(std::string_view value) const { return BucketOf(Fnv1a64(value)); }
    // The first hash of bucket (in [0, Count())).
    std::uint64_t FirstHash(int bucket) const;

  private:
    explicit BucketSpace(int count, int shift) : count_(count), shift_(shift) {}

    int count_;
    int shift_;  // 64 - log2(count): a hash's bucket is hash >> shift (0 buckets of 1: shift 64)
};

// A run of buckets [first, last) merged into one hash range.
struct BucketRun {
    int first = 0;
    int last = 0;  // exclusive

    bool operator==(const BucketRun&) const = default;
};

// buckets (any order, duplicates allowed, each in [0, count)) as the fewest runs, ascending.
std::vector<BucketRun> MergeRuns(std::vector<int> buckets);

// The run's bounds as the API server wants them: '0x' and 16 lowercase hex digits, or
// '0x10000000000000000' (2^64) for the end of the last bucket.
std::string RangeStart(const BucketSpace& space, const BucketRun& run);
std::string RangeEnd(const BucketSpace& space, const BucketRun& run);

// The shardSelector parameter for buckets, e.g. "shardRange(object.metadata.uid,
// '0x0000000000000000', '0x8000000000000000')", runs joined by " || "; empty for no buckets (a
// member that owns nothing must not list: the API server refuses an empty selector).
std::string ShardSelector(const BucketSpace& space, ShardKey key, const std::vector<int>& buckets);

}  // namespace ctrl::sharding
