#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ctrl/core/context.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::discovery {

// Whether objects of a resource live in a namespace.
enum class Scope { kNamespace, kRoot };

// How to reach a kind on the server (meta.RESTMapping): its resource and scope.
struct RESTMapping {
    GroupVersionResource resource{};
    GroupVersionKind gvk{};
    Scope scope = Scope::kNamespace;

    bool Namespaced() const { return scope == Scope::kNamespace; }
    bool operator==(const RESTMapping&) const = default;
};

// Maps kinds to resources and back (meta.RESTMapper). Lookups are Tasks because a miss may
// need discovery; a kind the server does not serve is NoMatch (IsNoMatch), never a generic
// error, and a failure to reach the server is Unavailable (or Timeout), never NoMatch.
// Resource names match plural or singular, case-insensitively. An empty version means "any,
// preferred first".
class RESTMapper {
  public:
    virtual ~RESTMapper() = default;

    // The preferred kind of a resource; resource.version may be empty.
    virtual Task<StatusOr<GroupVersionKind>> KindFor(Context ctx, GroupVersionResource resource) = 0;
    // Every kind of a resource, preferred first.
    virtual Task<StatusOr<std::vector<GroupVersionKind>>> KindsFor(Context ctx, GroupVersionResource resource) = 0;
    // The fully qualified preferred resource of a partial one.
    virtual Task<StatusOr<GroupVersionResource>> ResourceFor(Context ctx, GroupVersionResource input) = 0;
    virtual Task<StatusOr<std::vector<GroupVersionResource>>> ResourcesFor(Context ctx, GroupVersionResource input) = 0;
    // The mapping of kind in the first of versions that serves it (all versions, preferred
    // first, when versions is empty).
    virtual Task<StatusOr<discovery::RESTMapping>> RESTMapping(Context ctx, GroupKind kind,
                                                               std::vector<std::string> versions) = 0;
    virtual Task<StatusOr<std::vector<discovery::RESTMapping>>> RESTMappings(Context ctx, GroupKind kind,
                                                                             std::vector<std::string> versions) = 0;
    // "pods" -> "pod".
    virtual Task<StatusOr<std::string>> ResourceSingularizer(Context ctx, std::string resource) = 0;

    // The mapping of gvk when it is known without discovery: the client's fast path, with no Task.
    // nullopt means "ask RESTMapping", not "no such kind". Default: never known.
    virtual std::optional<discovery::RESTMapping> CachedMapping(const GroupVersionKind& /*gvk*/) const {
        return std::nullopt;
    }
    // The server answered 404 for a resource path of gv: forget what is known of gv, so the next
    // lookup asks again. Default: nothing is cached, nothing to forget.
    virtual void Invalidate(const GroupVersion& /*gv*/) {}
};

// Go's NoKindMatchError text: `no matches for kind "X" in version "g/v"` (or `in group "g"`).
Status NoKindMatch(const GroupKind& kind, const std::vector<std::string>& versions);
// Go's NoResourceMatchError text: `no matches for g/v, Resource=r`.
Status NoResourceMatch(const GroupVersionResource& resource);

}  // namespace ctrl::discovery
