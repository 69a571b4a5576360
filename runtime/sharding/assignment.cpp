#include "ctrl/sharding/assignment.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>

#include "ctrl/sharding/hash_range.hpp"

namespace ctrl::sharding {
namespace {

// SplitMix64's finalizer: spreads a 64-bit value over all bits.
std::uint64_t Mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

struct Pair {
    std::uint64_t weight;
    int member;  // index into the sorted member names
    int bucket;
};

}  // namespace

std::map<std::string, std::vector<int>> AssignBuckets(const std::vector<std::string>& members, int bucket_count,
                                                      const std::map<std::string, std::vector<int>>& current) {
    std::vector<std::string> names = members;
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::map<std::string, std::vector<int>> assignment;
    if (names.empty() || bucket_count <= 0)
        return assignment;
    std::vector<Pair> pairs;
    pairs.reserve(names.size() * static_cast<std::size_t>(bucket_count));
    // claimed[m * bucket_count + b]: member m claims bucket b now.
    std::vector<bool> claimed(names.size() * static_cast<std::size_t>(bucket_count), false);
    for (int m = 0; m < static_cast<int>(names.size()); ++m) {
        const std::string& name = names[static_cast<std::size_t>(m)];
        const std::uint64_t seed = Fnv1a64(name);
        for (int b = 0; b < bucket_count; ++b)
            pairs.push_back(Pair{Mix(seed ^ Mix(static_cast<std::uint64_t>(b) + 1)), m, b});
        if (const auto it = current.find(name); it != current.end()) {
            for (const int b : it->second) {
                if (b >= 0 && b < bucket_count)
                    claimed[static_cast<std::size_t>(m) * static_cast<std::size_t>(bucket_count) +
                            static_cast<std::size_t>(b)] = true;
            }
        }
    }
    // Heaviest first; ties (practically never) by member name, then bucket, so every member agrees.
    std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) {
        return std::tie(b.weight, a.member, a.bucket) < std::tie(a.weight, b.member, b.bucket);
    });
    // Shares of `share` buckets, `extra` of them one more: the first members to fill up get those.
    const int share = bucket_count / static_cast<int>(names.size());
    int extra = bucket_count % static_cast<int>(names.size());
    std::vector<int> load(names.size(), 0);
    std::vector<bool> taken(static_cast<std::size_t>(bucket_count), false);
    const auto give = [&](const Pair& pair) {
        auto& member_load = load[static_cast<std::size_t>(pair.member)];
        if (taken[static_cast<std::size_t>(pair.bucket)] || member_load > share)
            return;
        if (member_load == share) {
            if (extra == 0)
                return;
            --extra;
        }
        taken[static_cast<std::size_t>(pair.bucket)] = true;
        ++member_load;
        assignment[names[static_cast<std::size_t>(pair.member)]].push_back(pair.bucket);
    };
    for (const Pair& pair : pairs) {  // what members claim now, within their shares
        if (claimed[static_cast<std::size_t>(pair.member) * static_cast<std::size_t>(bucket_count) +
                    static_cast<std::size_t>(pair.bucket)])
            give(pair);
    }
    for (const Pair& pair : pairs)  // the rest
        give(pair);
    for (auto& [name, buckets] : assignment)
        std::sort(buckets.begin(), buckets.end());
    for (const std::string& name : names)
        assignment.try_emplace(name);
    return assignment;
}

int MovedBuckets(const std::map<std::string, std::vector<int>>& before,
                 const std::map<std::string, std::vector<int>>& after, int bucket_count) {
    // Owners by name, so the two maps' member indexes need not match.
    std::vector<std::string> owner_before(static_cast<std::size_t>(bucket_count));
    std::vector<std::string> owner_after(static_cast<std::size_t>(bucket_count));
    for (const auto& [name, buckets] : before)
        for (const int bucket : buckets)
            if (bucket >= 0 && bucket < bucket_count)
                owner_before[static_cast<std::size_t>(bucket)] = name;
    for (const auto& [name, buckets] : after)
        for (const int bucket : buckets)
            if (bucket >= 0 && bucket < bucket_count)
                owner_after[static_cast<std::size_t>(bucket)] = name;
    int moved = 0;
    for (int b = 0; b < bucket_count; ++b)
        moved += owner_before[static_cast<std::size_t>(b)] != owner_after[static_cast<std::size_t>(b)] ? 1 : 0;
    return moved;
}

}  // namespace ctrl::sharding
