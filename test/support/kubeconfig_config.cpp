#include "test/support/kubeconfig_config.hpp"

#include <gtest/gtest.h>

#include "ctrl/envtest/kubeconfig.hpp"
#include "test/support/control_plane_environment.hpp"

namespace ctrl::testing {

rest::Config ConfigFromKubeconfig(const std::string& path) {
    StatusOr<rest::Config> config = envtest::ConfigFromKubeconfigFile(path);
    EXPECT_TRUE(config.Ok()) << config.GetStatus();
    return config.Ok() ? *config : rest::Config{};
}

rest::Config SharedAdminConfig() {
    return ConfigFromKubeconfig(SharedControlPlane().KubeconfigPath());
}

}  // namespace ctrl::testing
