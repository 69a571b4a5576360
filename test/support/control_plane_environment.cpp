#include "test/support/control_plane_environment.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "test/support/termination.hpp"

namespace ctrl::testing {
namespace {

ControlPlaneEnvironment* g_environment = nullptr;

}  // namespace

ControlPlaneEnvironment::ControlPlaneEnvironment(ControlPlane::Options options)
    : control_plane_(std::make_unique<ControlPlane>(std::move(options))) {}

void ControlPlaneEnvironment::SetUp() {
    InstallTerminationHandler();
    Status status = control_plane_->Start();
    if (!status.Ok()) {
        std::cerr << "control plane: failed to start: " << status << std::endl;
        GTEST_FAIL() << "the local control plane did not start: " << status;
    }
    std::cout << "control plane: kube-apiserver " << control_plane_->Version() << ", etcd "
              << control_plane_->EtcdVersion() << ", ready in " << control_plane_->StartupDuration().count() << " ms ("
              << control_plane_->Host() << ", binaries in " << control_plane_->BinaryDir() << ")" << std::endl;
}

void ControlPlaneEnvironment::TearDown() {
    control_plane_->Stop();
}

ControlPlaneEnvironment* InstallControlPlaneEnvironment(ControlPlane::Options options) {
    if (g_environment != nullptr) {
        std::cerr << "InstallControlPlaneEnvironment called twice" << std::endl;
        std::abort();
    }
    // gtest owns the environment.
    g_environment = static_cast<ControlPlaneEnvironment*>(
        ::testing::AddGlobalTestEnvironment(new ControlPlaneEnvironment(std::move(options))));
    return g_environment;
}

ControlPlaneEnvironment* InstallControlPlaneEnvironment() {
    return InstallControlPlaneEnvironment({});
}

ControlPlane& SharedControlPlane() {
    if (g_environment == nullptr || !g_environment->Get().Running()) {
        std::cerr << "SharedControlPlane(): no running control plane; call InstallControlPlaneEnvironment "
                     "from main before RUN_ALL_TESTS"
                  << std::endl;
        std::abort();
    }
    return g_environment->Get();
}

}  // namespace ctrl::testing
