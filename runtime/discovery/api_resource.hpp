#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "ctrl/core/gvk.hpp"

namespace ctrl::discovery {

// One resource served by a group version (metav1.APIResource / apidiscovery's
// APIResourceDiscovery, flattened): what a RESTMapper needs to map its kind to a path.
struct APIResource {
    std::string name{};           // plural: "pods"; a subresource is "pods/status"
    std::string singular_name{};  // "pod" (may be empty on old servers: derive from kind)
    bool namespaced = false;
    std::string kind{};                // "Pod"
    std::string group{};               // only when it differs from the group version's
    std::string version{};             // only when it differs from the group version's
    std::vector<std::string> verbs{};  // get, list, watch, create, ...
    std::vector<std::string> short_names{};
    std::vector<std::string> categories{};

    bool IsSubresource() const { return name.find('/') != std::string::npos; }
    bool operator==(const APIResource&) const = default;
};

// Whether the server's aggregated document for a group version is up to date.
enum class Freshness { kCurrent, kStale };

// The resources of one group version (an APIResourceList, or one version of an
// APIGroupDiscovery).
struct GroupVersionResources {
    GroupVersion group_version{};
    std::vector<APIResource> resources{};  // top-level resources and subresources
    Freshness freshness = Freshness::kCurrent;

    bool operator==(const GroupVersionResources&) const = default;
};

// One API group and its served versions, the preferred one first (an APIGroup, or an
// APIGroupDiscovery without its resources).
struct APIGroup {
    std::string name{};                   // "" for the core group
    std::vector<std::string> versions{};  // preferred first
    std::string PreferredVersion() const { return versions.empty() ? std::string() : versions.front(); }

    bool operator==(const APIGroup&) const = default;
};

// Everything one aggregated discovery round returned: every group with every version's
// resources, in the server's order (the core group first).
struct AggregatedDiscovery {
    std::vector<APIGroup> groups{};
    std::vector<GroupVersionResources> versions{};
};

}  // namespace ctrl::discovery
