#include "ctrl/sharding/hash_range.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace ctrl::sharding {
namespace {

constexpr int kMaxBuckets = 65536;

std::string Hex16(std::uint64_t value) {
    char text[19];
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
    return text;
}

}  // namespace

std::uint64_t Fnv1a64(std::string_view value) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : value) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

std::string_view FieldPath(ShardKey key) {
    return key == ShardKey::kUid ? "object.metadata.uid" : "object.metadata.namespace";
}

StatusOr<BucketSpace> BucketSpace::Make(int count) {
    if (count < 1 || count > kMaxBuckets || (count & (count - 1)) != 0)
        return InvalidError("shard buckets: " + std::to_string(count) + " is not a power of two from 1 to 65536");
    return BucketSpace(count, 64 - std::countr_zero(static_cast<unsigned>(count)));
}

int BucketSpace::BucketOf(std::uint64_t hash) const {
    return shift_ >= 64 ? 0 : static_cast<int>(hash >> shift_);
}

std::uint64_t BucketSpace::FirstHash(int bucket) const {
    return shift_ >= 64 ? 0 : static_cast<std::uint64_t>(bucket) << shift_;
}

std::vector<BucketRun> MergeRuns(std::vector<int> buckets) {
    std::sort(buckets.begin(), buckets.end());
    buckets.erase(std::unique(buckets.begin(), buckets.end()), buckets.end());
    std::vector<BucketRun> runs;
    for (const int bucket : buckets) {
        if (!runs.empty() && runs.back().last == bucket)
            ++runs.back().last;
        else
            runs.push_back(BucketRun{bucket, bucket + 1});
    }
    return runs;
}

std::string RangeStart(const BucketSpace& space, const BucketRun& run) {
    return Hex16(space.FirstHash(run.first));
}

std::string RangeEnd(const BucketSpace& space, const BucketRun& run) {
    if (run.last >= space.Count())
        return "0x10000000000000000";
    return Hex16(space.FirstHash(run.last));
}

std::string ShardSelector(const BucketSpace& space, ShardKey key, const std::vector<int>& buckets) {
    std::string selector;
    for (const BucketRun& run : MergeRuns(buckets)) {
        if (!selector.empty())
            selector += " || ";
        selector += "shardRange(";
        selector += FieldPath(key);
        selector += ", '" + RangeStart(space, run) + "', '" + RangeEnd(space, run) + "')";
    }
    return selector;
}

}  // namespace ctrl::sharding
