#pragma once

#include <map>
#include <string>
#include <vector>

namespace ctrl::sharding {

// Which member of a ring owns each of bucket_count buckets: every member computes the same answer
// from the same set of member names (their order does not matter) and the same current claims.
//
// Rendezvous hashing with bounded loads: each (member, bucket) pair has a pseudo-random weight;
// pairs are taken heaviest first, a bucket going to the member of its pair unless that member
// already has its share (bucket_count / members, one more for the first bucket_count % members
// members to reach it). So the shares differ by one bucket at most. Sticky: a first pass over the
// pairs lets each member keep the buckets it claims now (`current`, by member name; names that are
// not members are ignored), as many as its share allows, heaviest first; only then are the others
// given out. So a member that joins takes its share and nothing else moves, and a member that
// leaves moves its own buckets only (from claims that were an assignment). Without claims the
// first pass keeps nothing. No members: an empty map.
std::map<std::string, std::vector<int>> AssignBuckets(const std::vector<std::string>& members, int bucket_count,
                                                      const std::map<std::string, std::vector<int>>& current = {});

// How many buckets changed owner between two assignments (a bucket owned in one and not the other
// counts).
int MovedBuckets(const std::map<std::string, std::vector<int>>& before,
                 const std::map<std::string, std::vector<int>>& after, int bucket_count);

}  // namespace ctrl::sharding
