#include "test/support/control_plane.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::testing {
namespace {

envtest::ControlPlane::Options WithSetupScript(envtest::ControlPlane::Options options) {
    if (options.setup_command.empty())
        options.setup_command = {RepoPath("hack/setup-envtest.sh")};
    return options;
}

}  // namespace

ControlPlane::ControlPlane() : ControlPlane(Options{}) {}

ControlPlane::ControlPlane(Options options) : envtest::ControlPlane(WithSetupScript(std::move(options))) {}

}  // namespace ctrl::testing
