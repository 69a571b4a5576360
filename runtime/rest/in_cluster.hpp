#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/config.hpp"

namespace ctrl::rest {

// Where a pod's service account is mounted.
inline constexpr std::string_view kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

// Where InClusterConfig looks; the defaults are a real pod's, tests point them at fakes.
struct InClusterOptions {
    // Holds token, ca.crt and namespace. Default: kServiceAccountDir.
    std::string service_account_dir = std::string(kServiceAccountDir);
    // The environment KUBERNETES_SERVICE_HOST/PORT and POD_NAMESPACE are read from. Default nullopt:
    // the process's.
    std::optional<std::map<std::string, std::string>> environment{};
};

// The Config of the pod's service account, as client-go's rest.InClusterConfig:
//  - host: https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT (an IPv6 host is bracketed);
//  - bearer_token_file: <dir>/token, read now (it must exist) and re-read by the authenticator,
//    since bound service-account tokens rotate; bearer_token holds the token read now;
//  - tls.ca_pem: <dir>/ca.crt; when the file does not exist the system trust store is used (as
//    client-go does), when it exists but cannot be read it is an error;
//  - default_namespace: $POD_NAMESPACE, else <dir>/namespace, else "default" (clientcmd's order).
// Errors: NotFound when not running in a cluster (KUBERNETES_SERVICE_HOST or _PORT unset), naming the
// variables; BadRequest when the service account's token or CA cannot be read, naming the file.
StatusOr<Config> InClusterConfig(const InClusterOptions& options = {});

}  // namespace ctrl::rest
