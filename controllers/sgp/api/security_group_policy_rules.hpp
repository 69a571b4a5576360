#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/label_selector.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/scheme/schema_validation.hpp"

namespace ctrl::vpcresources {

namespace sgp_rules {
// spec.<field> as a LabelSelectorSpec: nullopt when absent or null, the spec when present (`{}` is
// an empty spec, which selects everything), BadRequest "spec.<field>: ..." when malformed.
StatusOr<std::optional<LabelSelectorSpec>> ReadSelector(const Object& policy, std::string_view field);
// Replaces spec.<field> as a whole (the selector is atomic); nullopt removes it.
void WriteSelector(Object& policy, std::string_view field, const std::optional<LabelSelectorSpec>& selector);
// spec.securityGroups.groupIds in order; entries that are not strings are skipped.
std::vector<std::string> GroupIds(const Object& policy);
void SetGroupIds(Object& policy, const std::vector<std::string>& group_ids);
// The rules of docs/sgp.md that the schema cannot say: a selector that is there must parse, at least
// one selector must be there (cause on "spec"), and the group ids must be there.
void ValidateRules(const Object& policy, scheme::Validation& validation);
}  // namespace sgp_rules

// The hand-written part of SecurityGroupPolicy and SecurityGroupPolicyView (generated from the CRD
// by ctrl-gen, which mixes this in with --extension): selectors read and written as
// LabelSelectorSpec, where nullopt (absent or null: not specified) and an empty spec ({}: selects
// everything) mean different things (docs/sgp.md); the group ids as a list; and the rules Validate()
// applies before the schema's checks. The setters compile on SecurityGroupPolicy only.
template <typename Self>
class SecurityGroupPolicyRules {
  public:
    // spec.podSelector. BadRequest when present but malformed (not an object, a bad operator...).
    StatusOr<std::optional<LabelSelectorSpec>> PodSelector() const {
        return sgp_rules::ReadSelector(Obj(), "podSelector");
    }
    // spec.serviceAccountSelector, read the same way.
    StatusOr<std::optional<LabelSelectorSpec>> ServiceAccountSelector() const {
        return sgp_rules::ReadSelector(Obj(), "serviceAccountSelector");
    }
    // spec.securityGroups.groupIds in order; entries that are not strings are skipped (Validate
    // reports them).
    std::vector<std::string> GroupIds() const { return sgp_rules::GroupIds(Obj()); }
    // Called by the generated Validate() before the schema's checks.
    void ValidateRules(scheme::Validation& validation) const { sgp_rules::ValidateRules(Obj(), validation); }

    // nullopt removes the selector; an empty spec writes {}.
    void SetPodSelector(const std::optional<LabelSelectorSpec>& selector) {
        sgp_rules::WriteSelector(MutableObj(), "podSelector", selector);
    }
    void SetServiceAccountSelector(const std::optional<LabelSelectorSpec>& selector) {
        sgp_rules::WriteSelector(MutableObj(), "serviceAccountSelector", selector);
    }
    void SetGroupIds(const std::vector<std::string>& group_ids) { sgp_rules::SetGroupIds(MutableObj(), group_ids); }

  private:
    const Object& Obj() const { return static_cast<const Self&>(*this).AsObject(); }
    Object& MutableObj() { return static_cast<Self&>(*this).AsObject(); }
};

}  // namespace ctrl::vpcresources
