#pragma once

// Moved to runtime/envtest (the installed ctrl::envtest library); the tests keep using it as ctrl::testing.
#include "ctrl/envtest/pki.hpp"

namespace ctrl::testing {
using envtest::KeyPairFiles;
using envtest::Pki;
}  // namespace ctrl::testing
