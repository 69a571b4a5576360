#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "test/support/control_plane.hpp"

namespace ctrl::testing {

// A gtest global environment that starts one ControlPlane for a whole integration test binary and
// stops it after the last test. A control plane that cannot start fails the run (it is not a skip).
// SIGINT and SIGTERM tear it down too (InstallTerminationHandler).
class ControlPlaneEnvironment final : public ::testing::Environment {
  public:
    explicit ControlPlaneEnvironment(ControlPlane::Options options);

    // Starts the control plane and prints
    // "control plane: kube-apiserver <version>, etcd <version>, ready in <N> ms".
    void SetUp() override;
    void TearDown() override;

    ControlPlane& Get() { return *control_plane_; }

  private:
    std::unique_ptr<ControlPlane> control_plane_;
};

// Registers a ControlPlaneEnvironment with gtest; call from main before RUN_ALL_TESTS, once.
ControlPlaneEnvironment* InstallControlPlaneEnvironment(ControlPlane::Options options);
ControlPlaneEnvironment* InstallControlPlaneEnvironment();

// The running control plane of this test binary. Aborts with a message when no environment was
// installed or it is not running (tests do not run when it failed to start).
ControlPlane& SharedControlPlane();

}  // namespace ctrl::testing
