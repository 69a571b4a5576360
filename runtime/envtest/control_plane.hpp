#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status_or.hpp"
#include "ctrl/envtest/pki.hpp"
#include "ctrl/envtest/process.hpp"

namespace ctrl::envtest {

// A real, local Kubernetes control plane: etcd and kube-apiserver on 127.0.0.1 with a throw-away
// PKI, RBAC authorization, client-certificate and static-token authentication. No
// controller-manager or scheduler runs (no garbage collection, no ServiceAccount tokens, pods stay
// Pending). Used by envtest::Environment, ctrl's integration tests and the local demo (ctrl-control-plane).
//
// Start and Stop are called from one thread, which must outlive the control plane: the children
// are killed by the kernel when that thread exits. The accessors are valid after a successful
// Start and until Stop; AddUser, Token and TokenUserKubeconfig are thread-safe. Not final: ctrl's own
// tests derive from it only to default Options::setup_command to their source tree's script.
class ControlPlane {
  public:
    // A static bearer-token user (kube-apiserver --token-auth-file).
    struct TokenUser {
        std::string name{};
        std::vector<std::string> groups{};
    };

    struct Options {
        // Holds kube-apiserver and etcd. Default: $CTRL_ENVTEST_BIN_DIR, else the last line setup_command
        // prints, else the directory ctrl-setup-envtest fills for the pinned versions (binary_dir.hpp).
        std::string binary_dir{};
        // Run when neither binary_dir nor $CTRL_ENVTEST_BIN_DIR is set; prints the binary dir last (e.g.
        // {"ctrl-setup-envtest"}, which builds both from Go modules the first time: allow 20+ minutes).
        // Default: none, only the cache is searched.
        std::vector<std::string> setup_command{};
        // PKI, etcd data, logs and kubeconfigs. Default: a fresh directory under $TMPDIR (or /tmp), removed
        // by Stop; kept, and its path printed, when $CTRL_KEEP_CONTROL_PLANE_DIR is set or Start fails.
        // A given directory is created if needed and never removed; Start resets its etcd data.
        std::string work_dir{};
        // From the first certificate to a ready apiserver with a `default` namespace.
        std::chrono::milliseconds start_timeout{std::chrono::seconds(60)};
        // For setup_command when it has to compile the binaries.
        std::chrono::milliseconds setup_timeout{std::chrono::minutes(45)};
        // How long each component gets to exit after SIGTERM before SIGKILL.
        std::chrono::milliseconds stop_grace{std::chrono::seconds(10)};
        // Appended after the defaults, so they can override them (e.g. "--v=4", "--feature-gates=...").
        std::vector<std::string> apiserver_flags{};
        // etcd --quota-backend-bytes. Default 8 GiB, room for large benchmarks.
        int64_t etcd_quota_bytes = int64_t{8} << 30;
        // Bearer-token users; kube-apiserver reads its token file only at start (see AddTokenUser).
        std::vector<TokenUser> token_users{};
    };

    ControlPlane();
    explicit ControlPlane(Options options);
    ControlPlane(const ControlPlane&) = delete;
    ControlPlane& operator=(const ControlPlane&) = delete;
    // Stops the control plane if it runs.
    ~ControlPlane();

    // Starts etcd and kube-apiserver and waits until the apiserver is ready, never past
    // Options::start_timeout (plus the setup of the binaries). On failure nothing is left running
    // and the status names the component that failed, why, and the tail of its log.
    Status Start();
    // SIGTERM kube-apiserver, then etcd (SIGKILL after Options::stop_grace), then removes a temporary
    // work dir. Idempotent.
    void Stop();
    bool Running() const;

    // Issues a client certificate for `name` with `groups` (without system:masters unless listed)
    // and returns the path of a kubeconfig for it. After Start.
    StatusOr<std::string> AddUser(std::string_view name, const std::vector<std::string>& groups = {});
    // Adds a bearer-token user and returns its token. Only before Start (the apiserver reads its
    // token file once); after Start it fails with BadRequest: declare the users in
    // Options::token_users, or call this before Start.
    StatusOr<std::string> AddTokenUser(std::string_view name, const std::vector<std::string>& groups = {});
    // The token of a token user; NotFound for an unknown name.
    StatusOr<std::string> Token(std::string_view name) const;
    // A kubeconfig authenticating as token user `name`. After Start.
    StatusOr<std::string> TokenUserKubeconfig(std::string_view name);

    const std::string& Host() const { return host_; }  // https://127.0.0.1:<port>
    const std::string& CaFile() const;
    const std::string& AdminCertFile() const { return admin_.cert; }  // CN=admin, O=system:masters
    const std::string& AdminKeyFile() const { return admin_.key; }
    const std::string& KubeconfigPath() const { return kubeconfig_; }  // <work dir>/kubeconfig, admin
    const std::string& WorkDir() const { return work_dir_; }
    const std::string& BinaryDir() const { return binary_dir_; }
    const std::string& EtcdEndpoint() const { return etcd_url_; }  // http://127.0.0.1:<port>
    const std::string& Version() const { return version_; }        // kube-apiserver /version gitVersion
    const std::string& EtcdVersion() const { return etcd_version_; }
    // From the first certificate to ready: PKI, etcd, kube-apiserver, `default` namespace.
    std::chrono::milliseconds StartupDuration() const { return startup_duration_; }

    // Faults (the e2e fault suite). Each SIGKILLs the component's process group, starts it again
    // with the same flags (same port; etcd on the same data dir) and waits, within
    // Options::start_timeout, until the apiserver answers /readyz and GET namespaces/default again.
    // From the thread that called Start. The log of the new process is appended to the old one's.
    Status KillAndRestartApiserver();
    Status KillAndRestartEtcd();
    // etcd's current revision (the header of a range request), and a compaction of its history up
    // to `revision`: afterwards a watch from an older resourceVersion that reaches etcd gets 410 Gone.
    StatusOr<int64_t> EtcdRevision() const;
    Status CompactEtcd(int64_t revision) const;

  private:
    struct TokenEntry {
        std::vector<std::string> groups;
        std::string token;
    };

    Status StartComponents();
    Status ResolveBinaries();
    Status PrepareWorkDir();
    Status CreatePki();
    Status WriteTokenFile();
    // One try at starting both components on fresh ports; sets `port_conflict` when a port was taken.
    Status LaunchOnce(std::chrono::steady_clock::time_point deadline, bool& port_conflict);
    Status WaitForEtcd(std::chrono::steady_clock::time_point deadline);
    Status WaitForApiserver(std::chrono::steady_clock::time_point deadline);
    Status ReadVersions();
    void StopProcesses();
    void ReleaseWorkDir(bool keep);

    Options options_;
    mutable std::mutex mu_;  // guards tokens_, user_serial_ and issuing from pki_
    std::atomic<bool> running_ = false;
    bool owns_work_dir_ = false;
    std::string binary_dir_;
    std::string work_dir_;
    std::optional<Pki> pki_;
    KeyPairFiles serving_;
    KeyPairFiles admin_;
    KeyPairFiles service_account_;
    std::map<std::string, TokenEntry, std::less<>> tokens_;
    int user_serial_ = 0;
    std::string host_;
    std::string etcd_url_;
    std::string kubeconfig_;
    std::string version_;
    std::string etcd_version_;
    std::chrono::milliseconds startup_duration_{0};
    ChildProcess etcd_;
    ChildProcess apiserver_;
    std::vector<std::string> etcd_argv_;
    std::vector<std::string> apiserver_argv_;
};

}  // namespace ctrl::envtest
