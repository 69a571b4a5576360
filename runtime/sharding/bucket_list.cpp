#include "ctrl/sharding/bucket_list.hpp"

#include <charconv>

#include "ctrl/sharding/hash_range.hpp"

namespace ctrl::sharding {
namespace {

bool ParseInt(std::string_view text, int& value) {
    const char* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, value);
    return error == std::errc() && ptr == end;
}

}  // namespace

std::string FormatBucketList(const std::vector<int>& buckets) {
    std::string text;
    for (const BucketRun& run : MergeRuns(buckets)) {
        if (!text.empty())
            text += ',';
        text += std::to_string(run.first);
        if (run.last - run.first > 1)
            text += '-' + std::to_string(run.last - 1);
    }
    return text;
}

std::vector<int> ParseBucketList(std::string_view text, int count) {
    std::vector<int> buckets;
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view part = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        const std::size_t dash = part.find('-');
        int first = 0;
        int last = 0;
        const bool ok = dash == std::string_view::npos
                            ? ParseInt(part, first) && ParseInt(part, last)
                            : ParseInt(part.substr(0, dash), first) && ParseInt(part.substr(dash + 1), last);
        if (!ok || first < 0 || last < first || last >= count)
            continue;
        for (int b = first; b <= last; ++b)
            buckets.push_back(b);
    }
    std::vector<int> merged;
    for (const BucketRun& run : MergeRuns(buckets)) {
        for (int b = run.first; b < run.last; ++b)
            merged.push_back(b);
    }
    return merged;
}

std::vector<int> BucketsOf(const std::vector<bool>& set) {
    std::vector<int> buckets;
    for (std::size_t b = 0; b < set.size(); ++b) {
        if (set[b])
            buckets.push_back(static_cast<int>(b));
    }
    return buckets;
}

}  // namespace ctrl::sharding
