#pragma once

#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"

namespace ctrl::manager {

// The namespace of the pod this process runs in: the service account's namespace file
// (/var/run/secrets/kubernetes.io/serviceaccount/namespace, or under dir). NotFound naming the file
// when it cannot be read (not running in a cluster); BadRequest when it is empty.
StatusOr<std::string> InClusterNamespace(std::string_view dir = "/var/run/secrets/kubernetes.io/serviceaccount");

}  // namespace ctrl::manager
