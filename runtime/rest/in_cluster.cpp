#include "ctrl/rest/in_cluster.hpp"

#include "ctrl/rest/internal/kubeconfig_env.hpp"

namespace ctrl::rest {
namespace {

std::string JoinHostPort(const std::string& host, const std::string& port) {
    if (host.find(':') != std::string::npos && host.front() != '[')
        return "[" + host + "]:" + port;
    return host + ":" + port;
}

}  // namespace

StatusOr<Config> InClusterConfig(const InClusterOptions& options) {
    const std::string host = internal::GetEnv(options.environment, "KUBERNETES_SERVICE_HOST").value_or("");
    const std::string port = internal::GetEnv(options.environment, "KUBERNETES_SERVICE_PORT").value_or("");
    if (host.empty() || port.empty())
        return NotFoundError(
            "not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set for the "
            "in-cluster config");

    const std::string dir = options.service_account_dir;
    Config config;
    config.host = "https://" + JoinHostPort(host, port);
    config.bearer_token_file = internal::ResolvePath("token", dir);
    auto token = internal::ReadWholeFile(config.bearer_token_file);
    if (!token.Ok())
        return BadRequestError("in-cluster config: service account token " + token.GetStatus().Message());
    config.bearer_token = std::string(internal::TrimSpace(*token));
    if (config.bearer_token.empty())
        return BadRequestError("in-cluster config: service account token " + config.bearer_token_file + " is empty");

    auto ca = internal::ReadWholeFile(internal::ResolvePath("ca.crt", dir));
    if (ca.Ok()) {
        config.tls.ca_pem = std::move(ca).Value();
    } else if (!IsNotFound(ca.GetStatus())) {
        return BadRequestError("in-cluster config: service account CA " + ca.GetStatus().Message());
    }

    std::string namespace_name = internal::GetEnv(options.environment, "POD_NAMESPACE").value_or("");
    if (namespace_name.empty()) {
        auto from_file = internal::ReadWholeFile(internal::ResolvePath("namespace", dir));
        if (from_file.Ok())
            namespace_name = std::string(internal::TrimSpace(*from_file));
    }
    if (!namespace_name.empty())
        config.default_namespace = namespace_name;
    config.source = "in-cluster service account " + dir;
    config.in_cluster = true;
    return config;
}

}  // namespace ctrl::rest
