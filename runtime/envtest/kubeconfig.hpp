#pragma once

#include <string>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/config.hpp"

namespace ctrl::envtest {

// What a kubeconfig for the local control plane holds: one cluster, one user (a client
// certificate or a bearer token), one context named "ctrl-envtest" made current.
struct KubeconfigSpec {
    std::string server{};            // https://127.0.0.1:<port>
    std::string ca_file{};           // PEM file of the cluster CA
    std::string user{};              // the user entry's name
    std::string client_cert_file{};  // PEM client certificate, or empty
    std::string client_key_file{};   // PEM client key, or empty
    std::string token{};             // bearer token, or empty
};

// Writes a self-contained kubeconfig (certificates and keys embedded as *-data), mode 0600,
// atomically (a reader never sees half a file).
Status WriteKubeconfig(const std::string& path, const KubeconfigSpec& spec);

// The rest::Config of a kubeconfig file's current context (rest::LoadKubeconfig of that file only).
StatusOr<rest::Config> ConfigFromKubeconfigFile(const std::string& path);

}  // namespace ctrl::envtest
