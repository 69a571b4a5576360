#pragma once

#include "ctrl/envtest/control_plane.hpp"

namespace ctrl::testing {

// ctrl's own tests use the installed envtest::ControlPlane (runtime/envtest), with one default of the
// source tree: when neither Options::binary_dir nor $CTRL_ENVTEST_BIN_DIR is set, the binaries are the
// ones hack/setup-envtest.sh prints (building them the first time).
class ControlPlane final : public envtest::ControlPlane {
  public:
    ControlPlane();
    explicit ControlPlane(Options options);
};

}  // namespace ctrl::testing
