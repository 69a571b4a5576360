#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ctrl::cache {

// A write of this process that a cached read must not be older than (read-your-own-writes): the
// resourceVersion the server answered, as a number when it compares, and whether it was a delete.
struct WrittenVersion {
    // ComparableResourceVersion(text); 0 when the resourceVersion does not compare.
    uint64_t number = 0;
    std::string text{};
    bool deleted = false;
};

// The resourceVersion as a number, or 0 when it does not compare. Kubernetes 1.35 made
// resourceVersions comparable within one resource (KEP-5504, client-go's
// resourceversion.CompareResourceVersion): a well-formed one is a decimal integer without leading
// zeros, and of two, the longer is greater and equal lengths compare digit by digit, which is the
// order of their values. etcd's revisions (every built-in and CRD resource) are such integers and
// fit 64 bits; an aggregated API server may answer anything else, and those do not compare.
uint64_t ComparableResourceVersion(std::string_view resource_version);

// The WrittenVersion of a resourceVersion a write answered.
inline WrittenVersion MakeWrittenVersion(std::string_view resource_version, bool deleted) {
    return WrittenVersion{ComparableResourceVersion(resource_version), std::string(resource_version), deleted};
}

}  // namespace ctrl::cache
