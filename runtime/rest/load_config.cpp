#include "ctrl/rest/load_config.hpp"

#include <string_view>

#include "ctrl/rest/internal/kubeconfig_env.hpp"
#include "ctrl/rest/kubeconfig.hpp"

namespace ctrl::rest {
namespace {

// The value of flag `name` at argv[index] ("--name=v", "-name=v", "--name v"); advances index past
// a separate value. nullopt when argv[index] is another argument.
StatusOr<std::optional<std::string>> MatchFlag(std::string_view name, int argc, const char* const* argv, int& index) {
    std::string_view arg = argv[index];
    if (arg.substr(0, 2) == "--") {
        arg.remove_prefix(2);
    } else if (arg.substr(0, 1) == "-") {
        arg.remove_prefix(1);
    } else {
        return std::optional<std::string>();
    }
    if (arg.substr(0, name.size()) != name)
        return std::optional<std::string>();
    arg.remove_prefix(name.size());
    if (!arg.empty() && arg.front() == '=')
        return std::optional<std::string>(std::string(arg.substr(1)));
    if (!arg.empty())
        return std::optional<std::string>();
    if (index + 1 >= argc)
        return BadRequestError("flag --" + std::string(name) + " needs a value");
    ++index;
    return std::optional<std::string>(std::string(argv[index]));
}

}  // namespace

StatusOr<Config> LoadConfig(const LoadConfigOptions& options) {
    KubeconfigOptions kubeconfig{
        .explicit_path = options.kubeconfig, .context = options.context, .environment = options.environment};
    if (!options.kubeconfig.empty())
        return LoadKubeconfig(kubeconfig);

    Status in_cluster_error;
    if (internal::GetEnv(options.environment, "KUBECONFIG").value_or("").empty()) {
        auto in_cluster = InClusterConfig(
            InClusterOptions{.service_account_dir = options.service_account_dir, .environment = options.environment});
        if (in_cluster.Ok())
            return in_cluster;
        in_cluster_error = in_cluster.GetStatus();
    }
    auto loaded = LoadKubeconfig(kubeconfig);
    if (loaded.Ok() || in_cluster_error.Ok())
        return loaded;
    return Status(loaded.GetStatus().Code(),
                  loaded.GetStatus().Message() + " (in-cluster config: " + in_cluster_error.Message() + ")");
}

StatusOr<LoadConfigOptions> ParseConfigFlags(int argc, const char* const* argv) {
    LoadConfigOptions options;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "--" || arg == "-")
            break;
        CTRL_ASSIGN_OR_RETURN(std::optional<std::string> kubeconfig, MatchFlag("kubeconfig", argc, argv, i));
        if (kubeconfig) {
            options.kubeconfig = *kubeconfig;
            continue;
        }
        CTRL_ASSIGN_OR_RETURN(std::optional<std::string> context, MatchFlag("context", argc, argv, i));
        if (context)
            options.context = *context;
    }
    return options;
}

}  // namespace ctrl::rest
