#pragma once

// Moved to runtime/envtest (the installed ctrl::envtest library); the tests keep using it as ctrl::testing.
#include "ctrl/envtest/termination.hpp"

namespace ctrl::testing {
using envtest::ForgetOnTermination;
using envtest::InstallTerminationHandler;
using envtest::RemoveOnTermination;
using envtest::WaitForTerminationSignal;
}  // namespace ctrl::testing
