#pragma once

// Moved to runtime/envtest (the installed ctrl::envtest library); the tests keep using it as ctrl::testing.
#include "ctrl/envtest/free_port.hpp"

namespace ctrl::testing {
using envtest::FreePorts;
}  // namespace ctrl::testing
