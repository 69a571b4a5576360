#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/label_selector.hpp"
#include "runtime/core/object.hpp"
#include "runtime/core/status_or.hpp"
#include "runtime/scheme/object_view.hpp"
#include "runtime/scheme/typed_list.hpp"
#include "runtime/scheme/typed_object.hpp"

namespace ctrl::api {

// The read accessors of a SecurityGroupPolicy, shared by SecurityGroupPolicy and its view. A
// selector is std::optional: nullopt when the field is absent (or null), an empty spec for `{}`,
// which selects everything (notes/sgp.md: the two mean different things).
template <typename Self>
class SecurityGroupPolicyFields {
  public:
    // spec.podSelector. BadRequest when present but malformed (not an object, a bad operator...).
    StatusOr<std::optional<LabelSelectorSpec>> PodSelector() const;
    // spec.serviceAccountSelector, read the same way.
    StatusOr<std::optional<LabelSelectorSpec>> ServiceAccountSelector() const;
    // spec.securityGroups.groupIds in order; entries that are not strings are skipped (Validate
    // reports them).
    std::vector<std::string> GroupIds() const;
    // OK for a policy the VPC resource controller would apply. Invalid otherwise, with one cause
    // per problem: neither selector present (spec), no groupIds (spec.securityGroups.groupIds), a
    // malformed selector or groupIds entry (its field).
    Status Validate() const;

  private:
    const Object& Obj() const { return static_cast<const Self&>(*this).AsObject(); }
};

class SecurityGroupPolicyView;

// vpcresources.k8s.aws/v1beta1 SecurityGroupPolicy (namespaced; short name sgp): which security
// groups the pods it selects get. See notes/sgp.md for the matching rules.
class SecurityGroupPolicy final : public scheme::TypedObjectBase<SecurityGroupPolicy>,
                                  public SecurityGroupPolicyFields<SecurityGroupPolicy> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"vpcresources.k8s.aws", "v1beta1",
                                                                      "SecurityGroupPolicy"};
    static constexpr std::string_view kListKind = "SecurityGroupPolicyList";
    using View = SecurityGroupPolicyView;
    using TypedObjectBase::TypedObjectBase;

    // nullopt removes the selector; an empty spec writes {}.
    void SetPodSelector(const std::optional<LabelSelectorSpec>& selector);
    void SetServiceAccountSelector(const std::optional<LabelSelectorSpec>& selector);
    void SetGroupIds(const std::vector<std::string>& group_ids);
};

// A read-only SecurityGroupPolicy view of an object owned elsewhere.
class SecurityGroupPolicyView final : public scheme::ObjectView,
                                      public SecurityGroupPolicyFields<SecurityGroupPolicyView> {
  public:
    explicit SecurityGroupPolicyView(const Object& object) : ObjectView(object) {}
    SecurityGroupPolicyView(const SecurityGroupPolicy& sgp) : ObjectView(sgp) {}  // NOLINT(google-explicit-constructor)
    SecurityGroupPolicyView(SecurityGroupPolicy&&) = delete;
};

using SecurityGroupPolicyList = scheme::TypedList<SecurityGroupPolicy>;

extern template class SecurityGroupPolicyFields<SecurityGroupPolicy>;
extern template class SecurityGroupPolicyFields<SecurityGroupPolicyView>;

}  // namespace ctrl::api
