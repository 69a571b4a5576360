#include "ctrl/client/internal/delete_body.hpp"

#include <vector>

#include "ctrl/core/object.hpp"

namespace ctrl::client::internal {

std::string_view PropagationPolicyName(DeletionPropagation policy) {
    switch (policy) {
        case DeletionPropagation::kOrphan:
            return "Orphan";
        case DeletionPropagation::kBackground:
            return "Background";
        case DeletionPropagation::kForeground:
            return "Foreground";
    }
    return "Background";
}

std::string DeleteOptionsBody(const DeleteOptions& options, bool dry_run) {
    Object body;
    // The paths are fixed and never cross a non-object, so the setters cannot fail.
    if (options.grace_period_seconds)
        (void)body.SetNestedInt({"gracePeriodSeconds"}, *options.grace_period_seconds);
    if (options.propagation_policy)
        (void)body.SetNestedString({"propagationPolicy"}, PropagationPolicyName(*options.propagation_policy));
    if (options.preconditions.uid)
        (void)body.SetNestedString({"preconditions", "uid"}, *options.preconditions.uid);
    if (options.preconditions.resource_version)
        (void)body.SetNestedString({"preconditions", "resourceVersion"}, *options.preconditions.resource_version);
    if (dry_run || options.dry_run)
        (void)body.SetNestedStringSlice({"dryRun"}, std::vector<std::string>{"All"});
    return body.ToJson();
}

}  // namespace ctrl::client::internal
