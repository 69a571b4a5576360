#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/rest/transport.hpp"

namespace ctrl::rest {

// An exec credential plugin (client.authentication.k8s.io v1 / v1beta1), as in a kubeconfig
// user's `exec` stanza: how EKS's `aws eks get-token` and GKE's gke-gcloud-auth-plugin work.
struct ExecConfig {
    std::string api_version{};  // client.authentication.k8s.io/v1 or /v1beta1
    std::string command{};
    std::vector<std::string> args{};
    std::vector<std::pair<std::string, std::string>> env{};
    bool provide_cluster_info = false;
    std::string interactive_mode = "IfAvailable";  // Never, IfAvailable, Always
    std::string install_hint{};
    // The cluster's extensions entry "client.authentication.k8s.io/exec" as JSON ("" when none): sent to the
    // plugin as spec.cluster.config when provide_cluster_info is set.
    std::string cluster_config_json{};
};

// Everything needed to talk to one API server as one user: what a kubeconfig context or the
// in-cluster service account resolves to (client-go's rest.Config). Certificates and keys are
// held as PEM data; files named by a kubeconfig are read when it is loaded, except the token
// file, which is re-read when it changes (bound service-account tokens rotate).
struct Config {
    std::string host{};  // "https://10.0.0.1:443"
    TlsOptions tls{};
    std::string bearer_token{};
    std::string bearer_token_file{};  // wins over bearer_token when set
    std::string username{};           // basic auth
    std::string password{};
    std::optional<ExecConfig> exec{};
    std::string default_namespace = "default";  // the context's namespace, or the pod's in-cluster

    double qps = 0;  // client-side rate limit; 0: off (controller-runtime >= 0.21)
    int burst = 0;
    std::chrono::milliseconds timeout{0};  // per request (not watches); 0: none
    std::string user_agent{};              // default "ctrl/<version>"
    TransportKind transport = TransportKind::kBeast;
    // Wraps the transport NewTransport makes (client-go's WrapTransport): to observe, count, delay
    // or change requests and responses. Returning null is an error. Default: none.
    std::function<std::unique_ptr<Transport>(std::unique_ptr<Transport>)> wrap_transport{};

    // Where this came from, for messages: `kubeconfig /root/.kube/config, context "kind-x"`.
    std::string source{};
    // Whether this is a pod's own service account config (InClusterConfig), not a kubeconfig's.
    bool in_cluster = false;
};

}  // namespace ctrl::rest
