#pragma once

// kubectl as the control plane's admin, for the e2e tests: what a user types to install, change and
// read the cluster the operator runs against. Every call has a deadline.

#include <string>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::e2e {

// The admin kubeconfig of this test binary's control plane.
const std::string& AdminKubeconfig();

// Runs kubectl as admin and returns its stdout; a non-zero exit is an error carrying stderr.
StatusOr<std::string> KubectlOut(const std::vector<std::string>& args, const std::string& stdin_data = "");

// `kubectl apply -f -` of YAML (one or more documents), in namespace_name when not empty.
Status KubectlApply(const std::string& yaml, const std::string& namespace_name = "");

// `kubectl <args> -o json`, parsed.
StatusOr<Object> KubectlJson(const std::vector<std::string>& args);

// The items of a `kubectl get ... -o json` List.
StatusOr<std::vector<Object>> KubectlItems(const std::vector<std::string>& args);

}  // namespace ctrl::e2e
