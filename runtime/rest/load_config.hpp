#pragma once

#include <map>
#include <optional>
#include <string>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/rest/in_cluster.hpp"

namespace ctrl::rest {

// What LoadConfig may use; the defaults find the config the way an operator built on
// controller-runtime does.
struct LoadConfigOptions {
    // --kubeconfig: when set, only this file is used, and it must exist. Default "": search.
    std::string kubeconfig{};
    // --context: the kubeconfig context to use instead of current-context. Default "": current-context.
    // Ignored by the in-cluster config.
    std::string context{};
    // The environment (KUBECONFIG, HOME, KUBERNETES_SERVICE_HOST/PORT, POD_NAMESPACE). Default nullopt:
    // the process's.
    std::optional<std::map<std::string, std::string>> environment{};
    // The mounted service account, for the in-cluster config. Default: kServiceAccountDir.
    std::string service_account_dir = std::string(kServiceAccountDir);
};

// Finds the Config an operator should use, in controller-runtime's order (config.GetConfig):
//  1. --kubeconfig (options.kubeconfig) when set: that file alone (LoadKubeconfig, explicit path);
//  2. else, when $KUBECONFIG is empty, the in-cluster service account (InClusterConfig) if running in
//     a pod;
//  3. else (and when the in-cluster config failed) the kubeconfig loading rules: the $KUBECONFIG
//     list, or ~/.kube/config when $KUBECONFIG is empty (LoadKubeconfig).
// So a pod with no kubeconfig uses its service account; a developer's shell uses $KUBECONFIG or
// ~/.kube/config. When step 2 fails and ~/.kube/config also fails, the error is the kubeconfig's,
// with the in-cluster reason appended: "no kubeconfig found: /root/.kube/config does not exist
// (in-cluster config: not running in a cluster: ...)".
StatusOr<Config> LoadConfig(const LoadConfigOptions& options = {});

// Reads --kubeconfig and --context from a command line (also with one dash, as Go's flag package
// accepts, and as "--flag=value" or "--flag value"); other arguments are ignored. The rest of
// the options keep their defaults. BadRequest when a flag lacks its value.
StatusOr<LoadConfigOptions> ParseConfigFlags(int argc, const char* const* argv);

}  // namespace ctrl::rest
