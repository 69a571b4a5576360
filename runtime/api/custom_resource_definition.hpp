#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/api/condition.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/scheme/object_view.hpp"
#include "ctrl/scheme/typed_list.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::api {

// spec.names (and status.acceptedNames) of a CustomResourceDefinition.
struct CustomResourceNames {
    std::string plural;                    // "securitygrouppolicies": the resource in request paths
    std::string singular;                  // "securitygrouppolicy"
    std::string kind;                      // "CronTab"
    std::string list_kind;                 // "CronTabList"; the server defaults it to kind + "List"
    std::vector<std::string> short_names;  // ["ct"]
    std::vector<std::string> categories;   // ["all"]

    bool operator==(const CustomResourceNames&) const = default;
};

// One entry of spec.versions.
struct CustomResourceDefinitionVersion {
    std::string name;  // "v1beta1"
    bool served = false;
    bool storage = false;
    bool deprecated = false;
    bool status_subresource = false;  // subresources.status is present
    bool scale_subresource = false;   // subresources.scale is present

    bool operator==(const CustomResourceDefinitionVersion&) const = default;
};

// The read accessors of a CustomResourceDefinition, shared by CustomResourceDefinition and
// CustomResourceDefinitionView.
template <typename Self>
class CustomResourceDefinitionFields {
  public:
    std::string_view Group() const;  // spec.group
    CustomResourceNames Names() const;
    // status.acceptedNames: the names the server actually serves (may lag spec.names).
    CustomResourceNames AcceptedNames() const;
    // spec.scope: "Namespaced" or "Cluster".
    std::string_view Scope() const;
    bool IsNamespaced() const { return Scope() == "Namespaced"; }
    std::vector<CustomResourceDefinitionVersion> Versions() const;
    std::optional<CustomResourceDefinitionVersion> FindVersion(std::string_view name) const;
    // The kinds of the served versions, in spec order: "stable.example.com/v1, Kind=...".
    std::vector<GroupVersionKind> ServedKinds() const;
    // status.storedVersions.
    std::vector<std::string> StoredVersions() const;
    std::vector<Condition> Conditions() const;
    // Whether the Established condition is True: the API server serves the resource.
    bool IsEstablished() const;
    // Whether the NamesAccepted condition is True: the names do not clash with another CRD's.
    bool IsNamesAccepted() const;

  private:
    const Object& Obj() const { return static_cast<const Self&>(*this).AsObject(); }
};

class CustomResourceDefinitionView;

// apiextensions.k8s.io/v1 CustomResourceDefinition (cluster-scoped).
class CustomResourceDefinition final : public scheme::TypedObjectBase<CustomResourceDefinition>,
                                       public CustomResourceDefinitionFields<CustomResourceDefinition> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"apiextensions.k8s.io", "v1",
                                                                      "CustomResourceDefinition"};
    static constexpr std::string_view kListKind = "CustomResourceDefinitionList";
    using View = CustomResourceDefinitionView;
    using TypedObjectBase::TypedObjectBase;

    // Sets spec.versions[name].served; NotFound when there is no such version.
    Status SetVersionServed(std::string_view name, bool served);
};

// A read-only CustomResourceDefinition view of an object owned elsewhere.
class CustomResourceDefinitionView final : public scheme::ObjectView,
                                           public CustomResourceDefinitionFields<CustomResourceDefinitionView> {
  public:
    explicit CustomResourceDefinitionView(const Object& object) : ObjectView(object) {}
    CustomResourceDefinitionView(const CustomResourceDefinition& crd)  // NOLINT(google-explicit-constructor)
        : ObjectView(crd) {}
    CustomResourceDefinitionView(CustomResourceDefinition&&) = delete;
};

using CustomResourceDefinitionList = scheme::TypedList<CustomResourceDefinition>;

extern template class CustomResourceDefinitionFields<CustomResourceDefinition>;
extern template class CustomResourceDefinitionFields<CustomResourceDefinitionView>;

}  // namespace ctrl::api
