#include "test/support/control_plane.hpp"

#ifndef CTRL_REPO_ROOT
#error "CTRL_REPO_ROOT must name the repository root (test/support/CMakeLists.txt defines it)"
#endif

namespace ctrl::testing {
namespace {

envtest::ControlPlane::Options WithSetupScript(envtest::ControlPlane::Options options) {
    if (options.setup_command.empty())
        options.setup_command = {std::string(CTRL_REPO_ROOT) + "/hack/setup-envtest.sh"};
    return options;
}

}  // namespace

ControlPlane::ControlPlane() : ControlPlane(Options{}) {}

ControlPlane::ControlPlane(Options options) : envtest::ControlPlane(WithSetupScript(std::move(options))) {}

}  // namespace ctrl::testing
