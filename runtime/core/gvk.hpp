#pragma once

#include <compare>
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include "ctrl/core/status_or.hpp"

namespace ctrl {

// An API group and version: "v1" (the core group) or "apps/v1".
struct GroupVersion {
    GroupVersion() = default;
    GroupVersion(std::string group_name, std::string version_name)
        : group(std::move(group_name)), version(std::move(version_name)) {}
    std::string group;
    std::string version;

    // Parses an apiVersion: "v1", "apps/v1". Empty, "/v1", "apps/" or "a/b/c" are BadRequest.
    static StatusOr<GroupVersion> Parse(std::string_view api_version);
    // The apiVersion form: "v1" for the core group, "group/version" otherwise.
    std::string String() const;
    bool Empty() const { return group.empty() && version.empty(); }
    auto operator<=>(const GroupVersion&) const = default;
};

// A kind within a group, without a version: "Deployment.apps", "Pod".
struct GroupKind {
    GroupKind() = default;
    GroupKind(std::string group_name, std::string kind_name)
        : group(std::move(group_name)), kind(std::move(kind_name)) {}
    std::string group;
    std::string kind;

    std::string String() const;
    auto operator<=>(const GroupKind&) const = default;
};

// A resource within a group, without a version: "deployments.apps", "pods".
struct GroupResource {
    GroupResource() = default;
    GroupResource(std::string group_name, std::string resource_name)
        : group(std::move(group_name)), resource(std::move(resource_name)) {}
    std::string group;
    std::string resource;

    std::string String() const;
    auto operator<=>(const GroupResource&) const = default;
};

// A fully qualified kind: what a Scheme and a RESTMapper key objects by.
struct GroupVersionKind {
    GroupVersionKind() = default;
    GroupVersionKind(std::string group_name, std::string version_name, std::string kind_name)
        : group(std::move(group_name)), version(std::move(version_name)), kind(std::move(kind_name)) {}
    std::string group;
    std::string version;
    std::string kind;

    // From an object's apiVersion and kind.
    static StatusOr<GroupVersionKind> FromApiVersionKind(std::string_view api_version, std::string_view kind);
    GroupVersion ToGroupVersion() const { return {group, version}; }
    GroupKind ToGroupKind() const { return {group, kind}; }
    std::string ApiVersion() const { return ToGroupVersion().String(); }
    // "apps/v1, Kind=Deployment" ("/v1, Kind=Pod" for the core group), as Go prints it.
    std::string String() const;
    bool Empty() const { return group.empty() && version.empty() && kind.empty(); }
    auto operator<=>(const GroupVersionKind&) const = default;
};

// A fully qualified resource: what request paths are built from.
struct GroupVersionResource {
    GroupVersionResource() = default;
    GroupVersionResource(std::string group_name, std::string version_name, std::string resource_name)
        : group(std::move(group_name)), version(std::move(version_name)), resource(std::move(resource_name)) {}
    std::string group;
    std::string version;
    std::string resource;

    GroupVersion ToGroupVersion() const { return {group, version}; }
    GroupResource ToGroupResource() const { return {group, resource}; }
    // "apps/v1, Resource=deployments", as Go prints it.
    std::string String() const;
    bool Empty() const { return group.empty() && version.empty() && resource.empty(); }
    auto operator<=>(const GroupVersionResource&) const = default;
};

// Names an object: namespace (empty for cluster-scoped objects) and name.
// These types declare constructors, so they are not aggregates: `{ns, name}` selects the
// constructor, which GCC 12 compiles correctly inside a co_await expression (docs/decisions.md,
// decision 16).
struct ObjectKey {
    ObjectKey() = default;
    ObjectKey(std::string namespace_value, std::string name_value)
        : namespace_name(std::move(namespace_value)), name(std::move(name_value)) {}
    std::string namespace_name;
    std::string name;

    // "namespace/name", or "name" for a cluster-scoped object.
    std::string String() const;
    auto operator<=>(const ObjectKey&) const = default;
};

std::ostream& operator<<(std::ostream& os, const GroupVersion& gv);
std::ostream& operator<<(std::ostream& os, const GroupKind& gk);
std::ostream& operator<<(std::ostream& os, const GroupResource& gr);
std::ostream& operator<<(std::ostream& os, const GroupVersionKind& gvk);
std::ostream& operator<<(std::ostream& os, const GroupVersionResource& gvr);
std::ostream& operator<<(std::ostream& os, const ObjectKey& key);

namespace internal {
inline std::size_t HashCombine(std::size_t seed, std::string_view part) {
    return seed ^ (std::hash<std::string_view>{}(part) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}
}  // namespace internal

}  // namespace ctrl

template <>
struct std::hash<ctrl::GroupVersion> {
    std::size_t operator()(const ctrl::GroupVersion& v) const {
        return ctrl::internal::HashCombine(std::hash<std::string>{}(v.group), v.version);
    }
};
template <>
struct std::hash<ctrl::GroupKind> {
    std::size_t operator()(const ctrl::GroupKind& v) const {
        return ctrl::internal::HashCombine(std::hash<std::string>{}(v.group), v.kind);
    }
};
template <>
struct std::hash<ctrl::GroupResource> {
    std::size_t operator()(const ctrl::GroupResource& v) const {
        return ctrl::internal::HashCombine(std::hash<std::string>{}(v.group), v.resource);
    }
};
template <>
struct std::hash<ctrl::GroupVersionKind> {
    std::size_t operator()(const ctrl::GroupVersionKind& v) const {
        return ctrl::internal::HashCombine(ctrl::internal::HashCombine(std::hash<std::string>{}(v.group), v.version),
                                           v.kind);
    }
};
template <>
struct std::hash<ctrl::GroupVersionResource> {
    std::size_t operator()(const ctrl::GroupVersionResource& v) const {
        return ctrl::internal::HashCombine(ctrl::internal::HashCombine(std::hash<std::string>{}(v.group), v.version),
                                           v.resource);
    }
};
template <>
struct std::hash<ctrl::ObjectKey> {
    std::size_t operator()(const ctrl::ObjectKey& v) const {
        return ctrl::internal::HashCombine(std::hash<std::string>{}(v.namespace_name), v.name);
    }
};
