#include "test/e2e/operator_container.hpp"

#include "test/support/command.hpp"

namespace ctrl::e2e {
namespace {

constexpr char kServiceAccountDir[] = "/var/run/secrets/kubernetes.io/serviceaccount";

std::string Joined(const std::vector<std::string>& args) {
    std::string joined;
    for (const std::string& arg : args)
        joined += (joined.empty() ? "" : " ") + arg;
    return joined;
}

}  // namespace

std::string_view OperatorImage() {
    return CTRL_OPERATOR_IMAGE;
}

StatusOr<std::string> Podman(const std::vector<std::string>& args, std::chrono::milliseconds timeout) {
    std::vector<std::string> argv{CTRL_PODMAN};
    argv.insert(argv.end(), args.begin(), args.end());
    CTRL_ASSIGN_OR_RETURN(testing::CommandResult result, testing::RunCommand({.argv = argv, .timeout = timeout}));
    if (result.exit_code != 0)
        return InternalError("`podman " + Joined(args) + "` (" + CTRL_PODMAN + ") exited with code " +
                             std::to_string(result.exit_code) + ": " + result.err);
    return result.out;
}

Status RequireOperatorImage() {
    StatusOr<std::string> version = Podman({"version", "--format", "{{.Client.Version}}"});
    if (!version.Ok())
        return UnavailableError("podman does not run (hack/install-deps.sh installs it): " +
                                version.GetStatus().ToString());
    StatusOr<std::string> id = Podman({"image", "inspect", "--format", "{{.Id}}", std::string(OperatorImage())});
    if (!id.Ok())
        return NotFoundError("no image " + std::string(OperatorImage()) +
                             " in podman's storage: build it with hack/image.sh (ctest runs it as the test "
                             "operator_image_build first): " +
                             id.GetStatus().ToString());
    return OkStatus();
}

std::vector<std::string> ContainerRunCommand(const ContainerSpec& spec) {
    std::vector<std::string> argv{CTRL_PODMAN,
                                  "run",
                                  "--rm",
                                  "--name",
                                  spec.name,
                                  "--pull=never",
                                  "--network=host",
                                  "--user=65532:65532",
                                  "--read-only",
                                  "--cap-drop=ALL",
                                  "--security-opt=no-new-privileges",
                                  "--volume",
                                  spec.service_account_dir + ":" + kServiceAccountDir + ":ro",
                                  "--env=KUBERNETES_SERVICE_HOST=" + spec.service_host,
                                  "--env=KUBERNETES_SERVICE_PORT=" + spec.service_port,
                                  std::string(OperatorImage())};
    argv.insert(argv.end(), spec.args.begin(), spec.args.end());
    return argv;
}

Status StopContainer(const std::string& name, std::chrono::seconds grace) {
    return Podman({"stop", "--time", std::to_string(grace.count()), name}, grace + std::chrono::seconds(30))
        .GetStatus();
}

}  // namespace ctrl::e2e
