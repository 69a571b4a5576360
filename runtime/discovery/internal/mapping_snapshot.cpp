#include "ctrl/discovery/internal/mapping_snapshot.hpp"

#include <algorithm>
#include <cctype>

#include "ctrl/discovery/internal/version_priority.hpp"

namespace ctrl::discovery::internal {
namespace {

std::string Lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

// A resource's singular name: the server's, else the kind in lower case (as client-go does).
std::string SingularOf(const APIResource& resource) {
    return resource.singular_name.empty() ? Lower(resource.kind) : Lower(resource.singular_name);
}

}  // namespace

std::shared_ptr<MappingSnapshot> MappingSnapshot::CopyOf(const MappingSnapshot& other) {
    auto copy = std::make_shared<MappingSnapshot>();
    copy->groups = other.groups;
    copy->versions = other.versions;
    copy->core_list_known = other.core_list_known;
    copy->named_list_known = other.named_list_known;
    return copy;
}

std::vector<std::string> MappingSnapshot::VersionsOf(const std::string& group) const {
    std::vector<std::string> order;
    if (auto it = groups.find(group); it != groups.end())
        order = it->second.versions;
    // Fetched versions the list does not name (fetched by a versioned lookup) go last.
    std::vector<std::string> extra;
    for (auto it = versions.lower_bound(GroupVersion{group, ""}); it != versions.end() && it->first.group == group;
         ++it) {
        if (std::find(order.begin(), order.end(), it->first.version) == order.end()) {
            extra.push_back(it->first.version);
        }
    }
    std::sort(extra.begin(), extra.end(),
              [](const std::string& a, const std::string& b) { return PreferredVersion(a, b); });
    order.insert(order.end(), extra.begin(), extra.end());
    return order;
}

void MappingSnapshot::Index() {
    by_kind_.clear();
    by_resource_.clear();
    singular_by_plural_.clear();
    std::map<std::string, std::vector<std::string>> order_by_group;
    for (const auto& [gv, entry] : versions)
        order_by_group.try_emplace(gv.group);
    for (auto& [group, order] : order_by_group)
        order = VersionsOf(group);

    for (const auto& [group, order] : order_by_group) {
        for (const std::string& version : order) {
            auto it = versions.find(GroupVersion{group, version});
            if (it == versions.end())
                continue;
            for (const APIResource& resource : it->second.resources.resources) {
                if (resource.IsSubresource() || resource.kind.empty())
                    continue;
                RESTMapping mapping;
                mapping.resource = {group, version, resource.name};
                mapping.gvk = {resource.group.empty() ? group : resource.group,
                               resource.version.empty() ? version : resource.version, resource.kind};
                mapping.scope = resource.namespaced ? Scope::kNamespace : Scope::kRoot;
                // The first resource of a kind in a version wins, as in client-go's mapper.
                auto& kind_list = by_kind_[GroupKind{group, resource.kind}];
                const bool seen = std::any_of(kind_list.begin(), kind_list.end(),
                                              [&](const RESTMapping& m) { return m.resource.version == version; });
                if (!seen)
                    kind_list.push_back(mapping);
                by_resource_[GroupResource{group, Lower(resource.name)}].push_back(mapping);
                const std::string singular = SingularOf(resource);
                if (singular != Lower(resource.name))
                    by_resource_[GroupResource{group, singular}].push_back(mapping);
                singular_by_plural_.try_emplace(resource.name, singular);
            }
        }
    }
}

std::vector<RESTMapping> MappingSnapshot::MappingsFor(const GroupKind& kind,
                                                      const std::vector<std::string>& versions_wanted) const {
    auto it = by_kind_.find(kind);
    if (it == by_kind_.end())
        return {};
    if (versions_wanted.empty()) {
        // "Preferred first" needs the group's version list: without it this is a miss.
        if (!HasVersionList(kind.group))
            return {};
        return it->second;
    }
    std::vector<RESTMapping> out;
    for (const std::string& version : versions_wanted) {
        for (const RESTMapping& mapping : it->second) {
            if (mapping.resource.version == version)
                out.push_back(mapping);
        }
    }
    return out;
}

std::vector<RESTMapping> MappingSnapshot::MappingsForResource(const GroupVersionResource& resource) const {
    auto it = by_resource_.find(GroupResource{resource.group, Lower(resource.resource)});
    if (it == by_resource_.end())
        return {};
    if (resource.version.empty()) {
        if (!HasVersionList(resource.group))
            return {};
        return it->second;
    }
    std::vector<RESTMapping> out;
    for (const RESTMapping& mapping : it->second) {
        if (mapping.resource.version == resource.version)
            out.push_back(mapping);
    }
    return out;
}

bool MappingSnapshot::AllVersionsLoaded(const std::string& group) const {
    auto it = groups.find(group);
    if (it == groups.end())
        return false;
    return std::all_of(it->second.versions.begin(), it->second.versions.end(), [&](const std::string& version) {
        return versions.count(GroupVersion{group, version}) != 0;
    });
}

std::optional<std::string> MappingSnapshot::Singular(const std::string& plural) const {
    auto it = singular_by_plural_.find(Lower(plural));
    if (it == singular_by_plural_.end())
        return std::nullopt;
    return it->second;
}

}  // namespace ctrl::discovery::internal
