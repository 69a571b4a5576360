#pragma once

#include <string>

#include "ctrl/client/options.hpp"

namespace ctrl::client::internal {

// The metav1.DeleteOptions body of a delete or deletecollection: grace period, propagation
// policy, preconditions and dryRun, each only when set. "{}" when nothing is.
std::string DeleteOptionsBody(const DeleteOptions& options, bool dry_run);

// "Orphan", "Background", "Foreground".
std::string_view PropagationPolicyName(DeletionPropagation policy);

}  // namespace ctrl::client::internal
