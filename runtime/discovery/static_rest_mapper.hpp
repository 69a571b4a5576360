#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ctrl/discovery/api_resource.hpp"
#include "ctrl/discovery/rest_mapper.hpp"

namespace ctrl::discovery {

namespace internal {
class MappingSnapshot;
}  // namespace internal

// A RESTMapper that knows exactly the resources it was given and never asks a server
// (meta.DefaultRESTMapper): for fake clients, tests and programs whose kinds are fixed. Every
// lookup completes at once; a kind it was not given is NoMatch. Resources may be added at any
// time, also while other threads look kinds up.
class StaticRESTMapper final : public RESTMapper {
  public:
    StaticRESTMapper();
    ~StaticRESTMapper() override;

    // Serves resource (its name, kind, scope and singular) in group_version. Adding a kind's
    // resource again replaces it. Versions of a group are preferred in the order first added.
    void Add(const GroupVersion& group_version, const APIResource& resource);
    // The same from a kind, its plural resource name and scope.
    void Add(const GroupVersionKind& gvk, std::string plural, Scope scope);

    Task<StatusOr<GroupVersionKind>> KindFor(Context ctx, GroupVersionResource resource) override;
    Task<StatusOr<std::vector<GroupVersionKind>>> KindsFor(Context ctx, GroupVersionResource resource) override;
    Task<StatusOr<GroupVersionResource>> ResourceFor(Context ctx, GroupVersionResource input) override;
    Task<StatusOr<std::vector<GroupVersionResource>>> ResourcesFor(Context ctx, GroupVersionResource input) override;
    Task<StatusOr<discovery::RESTMapping>> RESTMapping(Context ctx, GroupKind kind,
                                                       std::vector<std::string> versions) override;
    Task<StatusOr<std::vector<discovery::RESTMapping>>> RESTMappings(Context ctx, GroupKind kind,
                                                                     std::vector<std::string> versions) override;
    Task<StatusOr<std::string>> ResourceSingularizer(Context ctx, std::string resource) override;
    // Always known (or NoMatch): nullopt only for a kind it was not given.
    std::optional<discovery::RESTMapping> CachedMapping(const GroupVersionKind& gvk) const override;

    // The mappings of kind (every version, preferred first, when versions is empty); NoMatch when none.
    StatusOr<std::vector<discovery::RESTMapping>> Mappings(const GroupKind& kind,
                                                           const std::vector<std::string>& versions) const;
    // The mappings of a resource given by plural or singular name; NoMatch when none.
    StatusOr<std::vector<discovery::RESTMapping>> MappingsForResource(const GroupVersionResource& resource) const;

  private:
    std::shared_ptr<const internal::MappingSnapshot> Current() const;

    mutable std::mutex mutex_;
    std::shared_ptr<const internal::MappingSnapshot> snapshot_;
};

// The plural resource name apimachinery guesses for a kind (meta.UnsafeGuessKindToResource):
// lower case, then "s", or "es" after an "s", or "ies" in place of a final "y". Right for nearly
// every kind; irregular ones (Endpoints) must be added by their real name.
std::string GuessPluralResource(std::string_view kind);

}  // namespace ctrl::discovery
