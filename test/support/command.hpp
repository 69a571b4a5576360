#pragma once

// Moved to runtime/envtest (the installed ctrl::envtest library); the tests keep using it as ctrl::testing.
#include "ctrl/envtest/command.hpp"

namespace ctrl::testing {
using envtest::Command;
using envtest::CommandResult;
using envtest::RunCommand;
}  // namespace ctrl::testing
