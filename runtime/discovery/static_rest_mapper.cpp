#include "ctrl/discovery/static_rest_mapper.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "ctrl/discovery/internal/mapping_snapshot.hpp"

namespace ctrl::discovery {
StaticRESTMapper::StaticRESTMapper() : snapshot_(std::make_shared<internal::MappingSnapshot>()) {}

StaticRESTMapper::~StaticRESTMapper() = default;

std::shared_ptr<const internal::MappingSnapshot> StaticRESTMapper::Current() const {
    std::lock_guard lock(mutex_);
    return snapshot_;
}

void StaticRESTMapper::Add(const GroupVersion& group_version, const APIResource& resource) {
    std::lock_guard lock(mutex_);
    std::shared_ptr<internal::MappingSnapshot> next = internal::MappingSnapshot::CopyOf(*snapshot_);
    std::vector<std::string>& versions = next->groups[group_version.group].versions;
    if (std::find(versions.begin(), versions.end(), group_version.version) == versions.end())
        versions.push_back(group_version.version);
    internal::MappingSnapshot::Version& served = next->versions[group_version];
    served.resources.group_version = group_version;
    std::vector<APIResource>& resources = served.resources.resources;
    std::erase_if(resources, [&](const APIResource& r) { return r.kind == resource.kind || r.name == resource.name; });
    resources.push_back(resource);
    next->Index();
    snapshot_ = std::move(next);
}

void StaticRESTMapper::Add(const GroupVersionKind& gvk, std::string plural, Scope scope) {
    APIResource resource;
    resource.name = std::move(plural);
    resource.kind = gvk.kind;
    resource.namespaced = scope == Scope::kNamespace;
    resource.verbs = {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"};
    Add(gvk.ToGroupVersion(), resource);
}

StatusOr<std::vector<discovery::RESTMapping>> StaticRESTMapper::Mappings(
    const GroupKind& kind, const std::vector<std::string>& versions) const {
    std::vector<discovery::RESTMapping> found = Current()->MappingsFor(kind, versions);
    if (found.empty())
        return NoKindMatch(kind, versions);
    return found;
}

StatusOr<std::vector<discovery::RESTMapping>> StaticRESTMapper::MappingsForResource(
    const GroupVersionResource& resource) const {
    std::vector<discovery::RESTMapping> found = Current()->MappingsForResource(resource);
    if (found.empty())
        return NoResourceMatch(resource);
    return found;
}

std::optional<discovery::RESTMapping> StaticRESTMapper::CachedMapping(const GroupVersionKind& gvk) const {
    std::vector<discovery::RESTMapping> found = Current()->MappingsFor(gvk.ToGroupKind(), {gvk.version});
    if (found.empty())
        return std::nullopt;
    return found.front();
}

Task<StatusOr<GroupVersionKind>> StaticRESTMapper::KindFor(Context /*ctx*/, GroupVersionResource resource) {
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<discovery::RESTMapping> found, MappingsForResource(resource));
    co_return found.front().gvk;
}

Task<StatusOr<std::vector<GroupVersionKind>>> StaticRESTMapper::KindsFor(Context /*ctx*/,
                                                                         GroupVersionResource resource) {
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<discovery::RESTMapping> found, MappingsForResource(resource));
    std::vector<GroupVersionKind> kinds;
    for (const discovery::RESTMapping& mapping : found)
        kinds.push_back(mapping.gvk);
    co_return kinds;
}

Task<StatusOr<GroupVersionResource>> StaticRESTMapper::ResourceFor(Context /*ctx*/, GroupVersionResource input) {
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<discovery::RESTMapping> found, MappingsForResource(input));
    co_return found.front().resource;
}

Task<StatusOr<std::vector<GroupVersionResource>>> StaticRESTMapper::ResourcesFor(Context /*ctx*/,
                                                                                 GroupVersionResource input) {
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<discovery::RESTMapping> found, MappingsForResource(input));
    std::vector<GroupVersionResource> resources;
    for (const discovery::RESTMapping& mapping : found)
        resources.push_back(mapping.resource);
    co_return resources;
}

Task<StatusOr<discovery::RESTMapping>> StaticRESTMapper::RESTMapping(Context /*ctx*/, GroupKind kind,
                                                                     std::vector<std::string> versions) {
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<discovery::RESTMapping> found, Mappings(kind, versions));
    co_return found.front();
}

Task<StatusOr<std::vector<discovery::RESTMapping>>> StaticRESTMapper::RESTMappings(Context /*ctx*/, GroupKind kind,
                                                                                   std::vector<std::string> versions) {
    co_return Mappings(kind, versions);
}

Task<StatusOr<std::string>> StaticRESTMapper::ResourceSingularizer(Context /*ctx*/, std::string resource) {
    if (std::optional<std::string> singular = Current()->Singular(resource))
        co_return *singular;
    co_return NoMatchError("no resource \"" + resource + "\" is known to the RESTMapper");
}

std::string GuessPluralResource(std::string_view kind) {
    std::string singular(kind);
    std::transform(singular.begin(), singular.end(), singular.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (singular.empty())
        return singular;
    if (singular.back() == 's')
        return singular + "es";
    if (singular.back() == 'y')
        return singular.substr(0, singular.size() - 1) + "ies";
    return singular + "s";
}

}  // namespace ctrl::discovery
