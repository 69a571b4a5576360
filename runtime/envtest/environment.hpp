#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/api/custom_resource_definition.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/envtest/control_plane.hpp"
#include "ctrl/envtest/crd_install.hpp"
#include "ctrl/envtest/webhook_install.hpp"
#include "ctrl/rest/config.hpp"

namespace ctrl::envtest {

// What an Environment starts (envtest.Environment's fields). Every field has a usable default.
struct EnvironmentOptions {
    // The control plane: where its binaries are (default $CTRL_ENVTEST_BIN_DIR, else the cache
    // ctrl-setup-envtest fills), work dir, timeouts, extra kube-apiserver flags, token users.
    ControlPlane::Options control_plane{};
    // CRD manifests installed after start: files, or directories of *.yaml, *.yml and *.json files
    // (envtest's CRDDirectoryPaths).
    std::vector<std::string> crd_paths{};
    // CRD manifests given as YAML or JSON text (envtest's CRDs).
    std::vector<std::string> crd_manifests{};
    // A crd_paths entry that does not exist fails Start (default; envtest's ErrorIfCRDPathMissing
    // defaults to false, which hides a mistyped path). false: it is skipped.
    bool error_if_crd_path_missing = true;
    // How long Start waits for the CRDs to be served.
    std::chrono::milliseconds crd_install_timeout{std::chrono::seconds(60)};
    // When set, Start also makes a serving certificate and installs these webhook configurations
    // (InstallWebhooks, envtest's WebhookInstallOptions), and installs the CRDs converted by webhook
    // pointed at the same local server's /convert. Webhooks() says where to serve: a manager's
    // options.webhook = {.host, .port, .cert_dir}.
    std::optional<WebhookInstallOptions> webhook{};
};

// A real Kubernetes API server for tests (controller-runtime's envtest.Environment): starts etcd and
// kube-apiserver on 127.0.0.1 with a throw-away PKI, installs CRDs and waits until they are served,
// and hands out the admin's rest::Config for clients and managers. No controller-manager runs: no
// garbage collection, namespaces stay Terminating, pods stay Pending.
//
//   ctrl::envtest::Environment env({.crd_paths = {"config/crd"}});
//   CTRL_ASSIGN_OR_RETURN(ctrl::rest::Config config, env.Start());
//   ... ctrl::client::New(config, executor), ctrl::manager::New(config, ...) ...
//   env.Stop();
//
// Start and Stop are called from one thread that outlives the control plane (the kernel kills the
// children when the thread that started them exits): the main thread, or a gtest Environment's SetUp.
class Environment final {
  public:
    Environment();
    explicit Environment(EnvironmentOptions options);
    Environment(const Environment&) = delete;
    Environment& operator=(const Environment&) = delete;
    // Stops the control plane if it runs.
    ~Environment();

    // Starts the control plane, installs the CRDs and waits until they are served; returns the
    // config of an admin user (system:masters). On failure nothing is left running and the status
    // says what failed: a missing binary names the directory searched and ctrl-setup-envtest.
    StatusOr<rest::Config> Start();
    // Stops kube-apiserver, then etcd, and removes the temporary work dir. Idempotent.
    void Stop();

    // After a successful Start:
    const rest::Config& Config() const { return config_; }
    // A kubeconfig file for the admin (for kubectl, or a manager's --kubeconfig).
    const std::string& KubeconfigPath() const { return control_plane_.KubeconfigPath(); }
    // The CRDs Start installed, as the server last answered.
    const std::vector<api::CustomResourceDefinition>& CRDs() const { return crds_; }
    // Where the webhooks are to be served (options.webhook set; empty otherwise). Stop removes the
    // certificate directory when Start made it.
    const InstalledWebhooks& Webhooks() const { return webhooks_; }
    // A user authenticated by a client certificate, with `groups` (no system:masters unless listed),
    // for tests of RBAC: its config (envtest's AddUser).
    StatusOr<rest::Config> AddUser(std::string_view name, const std::vector<std::string>& groups = {});
    // The control plane itself: ports, versions, log files, token users, faults.
    ControlPlane& GetControlPlane() { return control_plane_; }

  private:
    EnvironmentOptions options_;
    ControlPlane control_plane_;
    rest::Config config_;
    std::vector<api::CustomResourceDefinition> crds_;
    InstalledWebhooks webhooks_;
};

}  // namespace ctrl::envtest
