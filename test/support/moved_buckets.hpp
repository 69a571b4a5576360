#pragma once

// How many buckets changed owner between two readings of a shard ring's owners (bucket -> owner),
// for the sharding tests. Header-only.

#include <map>
#include <string>

namespace ctrl::testing {

// Buckets of [0, bucket_count) whose owner differs between before and after (a bucket owned in one
// reading and not in the other counts).
inline int MovedBuckets(const std::map<int, std::string>& before, const std::map<int, std::string>& after,
                        int bucket_count) {
    int moved = 0;
    for (int bucket = 0; bucket < bucket_count; ++bucket) {
        const auto was = before.find(bucket);
        const auto is = after.find(bucket);
        if (was == before.end() || is == after.end() || was->second != is->second)
            ++moved;
    }
    return moved;
}

}  // namespace ctrl::testing
