#pragma once

// The built ctrl-operator run as its own process against the test binary's control plane, as its
// ServiceAccount (a TokenRequest token), either with a kubeconfig holding that token or in-cluster
// (the standard service-account files in a private mount namespace), with its probes and metrics on
// free loopback ports and its log in a file.

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "ctrl/core/status_or.hpp"
#include "test/e2e/operator_manifests.hpp"
#include "test/support/process.hpp"
#include "test/support/prometheus_server.hpp"

namespace ctrl::e2e {

struct OperatorOptions {
    // Names the log file and the work directory.
    std::string name = "operator";
    // --watch-namespaces; empty: every namespace.
    std::vector<std::string> watch_namespaces{};
    // More flags, after the fixture's.
    std::vector<std::string> args{};
    // The ServiceAccount of ctrl-system whose token the operator runs with.
    std::string service_account = std::string(kOperatorServiceAccount);
    // In-cluster: no --kubeconfig; KUBERNETES_SERVICE_HOST/PORT set, HOME an empty directory,
    // KUBECONFIG unset, and token, ca.crt and namespace (ctrl-system) at
    // /var/run/secrets/kubernetes.io/serviceaccount, mounted in a private mount namespace (`unshare
    // --mount`: a tmpfs over /run holding a bind mount of the test's directory), so nothing on the
    // machine changes. /metrics is then HTTPS (secure by default in-cluster).
    bool in_cluster = false;
    // A kubeconfig file to run with instead of the one the fixture writes (the ServiceAccount's token);
    // not with in_cluster.
    std::string kubeconfig{};
    // The kubeconfig's server (e.g. a proxy in front of the control plane, with the same CA);
    // empty: the control plane's. Not for in_cluster.
    std::string server{};
    // In a container: the operator image run as a kubelet would (operator_container.hpp), in-cluster
    // as above but with the service-account files mounted into the container; /metrics is then
    // HTTPS by default too. Not with kubeconfig or server.
    bool container = false;
};

// One running operator. Stops it (SIGTERM, then SIGKILL after 15 s; a container with `podman
// stop`) when destroyed; its work
// directory (kubeconfig or service-account files, log) is removed unless the test has failed.
class OperatorProcess final {
  public:
    // Starts the operator and waits (kTestWait) until it serves /healthz. An error carries the end of
    // its log when it exited.
    static StatusOr<std::unique_ptr<OperatorProcess>> Start(const OperatorOptions& options);

    OperatorProcess(const OperatorProcess&) = delete;
    OperatorProcess& operator=(const OperatorProcess&) = delete;
    ~OperatorProcess();

    const std::string& Name() const { return name_; }
    pid_t Pid() const { return process_.Pid(); }
    bool Running() { return process_.Running(); }
    testing::ChildProcess& Process() { return process_; }
    // The container's name when it runs in one (OperatorOptions::container), else "". Process() is
    // then the foreground `podman run`, which exits with the operator's exit code.
    const std::string& ContainerName() const { return container_name_; }
    // The token it runs with (also good for reading its secure /metrics when authorized).
    const std::string& Token() const { return token_; }

    // GET <probe server><path>: "/healthz", "/readyz?verbose", "/readyz/sgp-kind-served".
    testing::CurlResult Probe(const std::string& path) const;
    testing::CurlResult Readyz() const { return Probe("/readyz?verbose"); }
    testing::CurlResult ReadyzCheck(const std::string& name) const { return Probe("/readyz/" + name); }
    // GET /metrics (HTTPS when secure), with a bearer token when given.
    testing::CurlResult Metrics(const std::string& token = "") const;
    // The body of /metrics, "" when it did not answer 200.
    std::string MetricsText() const;

    // https://127.0.0.1:<port>/metrics when secure, else http://...
    const std::string& MetricsUrl() const { return metrics_url_; }

    const std::string& LogPath() const { return process_.LogPath(); }
    // Its whole log so far.
    std::string Log() const;
    // The last lines of its log, headed by its name and how it ended, for failure messages.
    std::string LogTail(int lines = 60) const;
    // How many lines of its log contain every one of `parts`.
    int LogLinesWith(const std::vector<std::string>& parts) const;

  private:
    OperatorProcess() = default;
    Status Launch(const OperatorOptions& options);

    std::string name_;
    std::string dir_;
    std::string token_;
    std::string probe_url_;
    std::string metrics_url_;
    std::string container_name_;
    testing::ChildProcess process_;
};

}  // namespace ctrl::e2e
