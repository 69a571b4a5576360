#pragma once

// The operator image (hack/image.sh builds it) run as a container the way a kubelet runs the
// Deployment's pod: as user 65532, read-only root file system, every capability dropped, no new
// privileges, the ServiceAccount's token, CA and namespace mounted at
// /var/run/secrets/kubernetes.io/serviceaccount, KUBERNETES_SERVICE_HOST/PORT naming the API
// server; host network, to reach the test's control plane on loopback. podman runs through
// hack/internal/podman.sh (this machine's settings).

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::e2e {

// The image the tests run (hack/image.sh's tag, as podman names it: localhost/ctrl-operator:v<version>).
std::string_view OperatorImage();

// podman (through hack/internal/podman.sh) with args; its stdout, or an error carrying the command,
// its exit code and stderr.
StatusOr<std::string> Podman(const std::vector<std::string>& args,
                             std::chrono::milliseconds timeout = std::chrono::seconds(60));

// OK when podman runs and OperatorImage() is in its storage; otherwise an error saying what is
// missing and how to build the image.
Status RequireOperatorImage();

struct ContainerSpec {
    std::string name;                 // the container's name
    std::string service_account_dir;  // token, ca.crt, namespace: mounted read-only at the standard path
    std::string service_host;         // KUBERNETES_SERVICE_HOST
    std::string service_port;         // KUBERNETES_SERVICE_PORT
    std::vector<std::string> args;    // the operator's arguments
};

// The `podman run --rm` command line that runs the image in the foreground: its output is the
// operator's, its exit code the operator's, and SIGTERM to it reaches the operator.
std::vector<std::string> ContainerRunCommand(const ContainerSpec& spec);

// `podman stop -t <grace> <name>`, as a kubelet ends a pod: SIGTERM, SIGKILL once grace has passed.
Status StopContainer(const std::string& name, std::chrono::seconds grace);

}  // namespace ctrl::e2e
