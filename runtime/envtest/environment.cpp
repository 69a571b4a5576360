#include "ctrl/envtest/environment.hpp"

#include <filesystem>
#include <system_error>

#include "ctrl/envtest/kubeconfig.hpp"

namespace ctrl::envtest {

Environment::Environment() : Environment(EnvironmentOptions{}) {}

Environment::Environment(EnvironmentOptions options)
    : options_(std::move(options)), control_plane_(options_.control_plane) {}

Environment::~Environment() {
    Stop();
}

StatusOr<rest::Config> Environment::Start() {
    CTRL_RETURN_IF_ERROR(control_plane_.Start());
    StatusOr<rest::Config> config = ConfigFromKubeconfigFile(control_plane_.KubeconfigPath());
    CRDInstallOptions install;
    install.paths = options_.crd_paths;
    install.manifests = options_.crd_manifests;
    install.error_if_path_missing = options_.error_if_crd_path_missing;
    install.max_time = options_.crd_install_timeout;
    if (config.Ok() && options_.webhook) {
        StatusOr<InstalledWebhooks> webhooks = InstallWebhooks(*config, *options_.webhook);
        if (webhooks.Ok()) {
            webhooks_ = std::move(*webhooks);
            install.conversion_webhook = webhooks_.ConversionClient();
        } else {
            config = webhooks.GetStatus();
        }
    }
    if (config.Ok()) {
        StatusOr<std::vector<api::CustomResourceDefinition>> crds = InstallCRDs(*config, install);
        if (crds.Ok()) {
            config_ = *config;
            crds_ = std::move(*crds);
            return config_;
        }
        config = crds.GetStatus();
    }
    Stop();
    return config.GetStatus().Annotate("starting the test environment");
}

void Environment::Stop() {
    control_plane_.Stop();
    if (!webhooks_.cert_dir.empty() && options_.webhook && options_.webhook->local_serving_cert_dir.empty()) {
        std::error_code ignored;
        std::filesystem::remove_all(webhooks_.cert_dir, ignored);
    }
    webhooks_ = InstalledWebhooks{};
}

StatusOr<rest::Config> Environment::AddUser(std::string_view name, const std::vector<std::string>& groups) {
    CTRL_ASSIGN_OR_RETURN(std::string kubeconfig, control_plane_.AddUser(name, groups));
    return ConfigFromKubeconfigFile(kubeconfig);
}

}  // namespace ctrl::envtest
