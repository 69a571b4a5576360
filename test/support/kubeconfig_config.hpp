#pragma once

#include <string>

#include "ctrl/rest/config.hpp"

namespace ctrl::testing {

// The rest::Config of a kubeconfig file (a gtest failure, and an empty Config, when it does not load).
rest::Config ConfigFromKubeconfig(const std::string& path);
// The admin of the shared control plane (SharedControlPlane()).
rest::Config SharedAdminConfig();

}  // namespace ctrl::testing
