#pragma once

// Moved to runtime/envtest (the installed ctrl::envtest library); the tests keep using it as ctrl::testing.
#include "ctrl/envtest/process.hpp"

namespace ctrl::testing {
using envtest::ChildProcess;
using envtest::KillAllChildrenNow;
using envtest::TailOfFile;
using envtest::TerminateAllChildren;
}  // namespace ctrl::testing
