#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ctrl::sharding {

// Buckets written compactly for a Lease annotation: ascending runs, "0-3,7,9-12"; "" for none.
std::string FormatBucketList(const std::vector<int>& buckets);
// The buckets of such a text, ascending; parts that are not numbers or runs in [0, count) are
// left out (a claim nobody can read claims nothing of ours).
std::vector<int> ParseBucketList(std::string_view text, int count);
// The buckets a per-bucket set marks (set[b] true), ascending.
std::vector<int> BucketsOf(const std::vector<bool>& set);

}  // namespace ctrl::sharding
