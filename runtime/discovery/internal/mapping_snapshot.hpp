#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ctrl/discovery/api_resource.hpp"
#include "ctrl/discovery/rest_mapper.hpp"

namespace ctrl::discovery::internal {

// What the lazy mapper knows at one moment: the groups whose version lists it fetched, the
// group versions whose resources it fetched, and indices over them. Immutable once built, so
// readers use it without a lock while a reload builds the next one.
class MappingSnapshot final {
  public:
    using Clock = std::chrono::steady_clock;

    struct Group {
        std::vector<std::string> versions;  // preferred first
        Clock::time_point fetched;
    };
    struct Version {
        GroupVersionResources resources;
        Clock::time_point fetched;
    };

    // A copy of other's data; call Index() after changing it.
    static std::shared_ptr<MappingSnapshot> CopyOf(const MappingSnapshot& other);
    MappingSnapshot() = default;

    // Data, changed only while building.
    std::map<std::string, Group> groups;
    std::map<GroupVersion, Version> versions;
    // Whether `groups` holds the whole list of one side (core "" / named groups), so that a group
    // missing from it does not exist.
    bool core_list_known = false;
    bool named_list_known = false;

    // Rebuilds the indices from the data.
    void Index();

    // Mappings of kind in versions (every known version, preferred first, when empty).
    std::vector<RESTMapping> MappingsFor(const GroupKind& kind, const std::vector<std::string>& versions) const;
    // Mappings of a resource given by plural or singular name; version may be empty.
    std::vector<RESTMapping> MappingsForResource(const GroupVersionResource& resource) const;
    // The singular of a plural resource name in any known group; nullopt when unknown.
    std::optional<std::string> Singular(const std::string& plural) const;
    // The versions of a group in preference order: the server's list when known, else the
    // fetched versions by Kubernetes version priority.
    std::vector<std::string> VersionsOf(const std::string& group) const;
    bool HasVersionList(const std::string& group) const { return groups.count(group) != 0; }
    // Whether every version the group's list names has been fetched.
    bool AllVersionsLoaded(const std::string& group) const;

  private:
    // GroupKind -> its mappings in preference order.
    std::unordered_map<GroupKind, std::vector<RESTMapping>> by_kind_;
    // GroupResource (plural and singular, lower case) -> mappings in preference order.
    std::unordered_map<GroupResource, std::vector<RESTMapping>> by_resource_;
    std::unordered_map<std::string, std::string> singular_by_plural_;
};

}  // namespace ctrl::discovery::internal
