#pragma once

// Moved to runtime/envtest (the installed ctrl::envtest library); the tests keep using it as ctrl::testing.
#include "ctrl/envtest/kubeconfig.hpp"

namespace ctrl::testing {
using envtest::KubeconfigSpec;
using envtest::WriteKubeconfig;
}  // namespace ctrl::testing
