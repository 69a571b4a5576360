#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/object.hpp"
#include "runtime/scheme/object_view.hpp"
#include "runtime/scheme/typed_list.hpp"
#include "runtime/scheme/typed_object.hpp"

namespace ctrl::api {

// An entry of a CNINode's spec.features: {"name": "SecurityGroupsForPods", "value": "..."}.
struct CNINodeFeature {
    std::string name;
    std::string value;

    bool operator==(const CNINodeFeature&) const = default;
};

// The read accessors of a CNINode, shared by CNINode and CNINodeView.
template <typename Self>
class CNINodeFields {
  public:
    std::vector<CNINodeFeature> Features() const;
    bool HasFeature(std::string_view name) const;
    // spec.tags.
    std::map<std::string, std::string> Tags() const;

  private:
    const Object& Obj() const { return static_cast<const Self&>(*this).AsObject(); }
};

class CNINodeView;

// vpcresources.k8s.aws/v1alpha1 CNINode (cluster-scoped; short name cnd): the VPC CNI's per-node
// record, named like its node. The same group as SecurityGroupPolicy in another version.
class CNINode final : public scheme::TypedObjectBase<CNINode>, public CNINodeFields<CNINode> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"vpcresources.k8s.aws", "v1alpha1", "CNINode"};
    static constexpr std::string_view kListKind = "CNINodeList";
    using View = CNINodeView;
    using TypedObjectBase::TypedObjectBase;

    // Replaces spec.features; an empty list removes it.
    void SetFeatures(const std::vector<CNINodeFeature>& features);
};

// A read-only CNINode view of an object owned elsewhere.
class CNINodeView final : public scheme::ObjectView, public CNINodeFields<CNINodeView> {
  public:
    explicit CNINodeView(const Object& object) : ObjectView(object) {}
    CNINodeView(const CNINode& node) : ObjectView(node) {}  // NOLINT(google-explicit-constructor)
    CNINodeView(CNINode&&) = delete;
};

using CNINodeList = scheme::TypedList<CNINode>;

extern template class CNINodeFields<CNINode>;
extern template class CNINodeFields<CNINodeView>;

}  // namespace ctrl::api
