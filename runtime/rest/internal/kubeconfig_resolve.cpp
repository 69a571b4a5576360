#include "ctrl/rest/internal/kubeconfig_resolve.hpp"

#include <utility>

#include "ctrl/core/base64.hpp"
#include "ctrl/rest/exec_credential.hpp"
#include "ctrl/rest/internal/kubeconfig_env.hpp"

namespace ctrl::rest::internal {
namespace {

std::string Quote(const std::string& text) {
    return "\"" + text + "\"";
}

// "kubeconfig /x/config: cluster "c""
std::string EntryPrefix(const std::string& origin, std::string_view kind, const std::string& name) {
    return "kubeconfig " + origin + ": " + std::string(kind) + " " + Quote(name);
}

Status EntryError(const std::string& prefix, const std::string& problem) {
    return BadRequestError(prefix + ": " + problem);
}

// A Kubernetes namespace name: a DNS-1123 label.
bool IsDns1123Label(const std::string& name) {
    if (name.empty() || name.size() > 63)
        return false;
    auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (!alnum(name.front()) || !alnum(name.back()))
        return false;
    for (char c : name) {
        if (!alnum(c) && c != '-')
            return false;
    }
    return true;
}

// The PEM data of a "<field>" / "<field>-data" pair: the decoded data, or the file's contents.
StatusOr<std::string> FileOrData(const std::string& prefix, const std::string& field, const std::string& file,
                                 const std::string& data, const std::string& origin) {
    if (!file.empty() && !data.empty())
        return EntryError(prefix, field + " and " + field + "-data are both set");
    if (!data.empty()) {
        auto decoded = Base64Decode(data);
        if (!decoded.Ok())
            return EntryError(prefix, field + "-data: " + decoded.GetStatus().Message());
        return std::move(decoded).Value();
    }
    if (file.empty())
        return std::string();
    const std::string path = ResolvePath(file, DirectoryOf(origin));
    auto contents = ReadWholeFile(path);
    if (!contents.Ok())
        return EntryError(prefix, field + " " + contents.GetStatus().Message());
    return std::move(contents).Value();
}

Status ResolveCluster(const Named<KubeconfigCluster>& entry, Config& config) {
    const KubeconfigCluster& cluster = entry.value;
    const std::string prefix = EntryPrefix(entry.origin, "cluster", entry.name);
    if (cluster.server.empty())
        return EntryError(prefix, "no server set");
    if (!cluster.proxy_url.empty())
        return EntryError(prefix, "proxy-url is not supported");
    CTRL_ASSIGN_OR_RETURN(config.tls.ca_pem, FileOrData(prefix, "certificate-authority", cluster.certificate_authority,
                                                        cluster.certificate_authority_data, entry.origin));
    if (cluster.insecure_skip_tls_verify && !config.tls.ca_pem.empty())
        return EntryError(prefix, "insecure-skip-tls-verify and a certificate authority are both set");
    config.tls.insecure_skip_verify = cluster.insecure_skip_tls_verify;
    config.tls.server_name = cluster.tls_server_name;
    config.host = cluster.server;
    return OkStatus();
}

Status ResolveExec(const std::string& prefix, const KubeconfigUser& user, const KubeconfigCluster& cluster,
                   const std::string& origin, Config& config) {
    const KubeconfigExec& exec = *user.exec;
    ExecConfig out;
    out.api_version = exec.api_version;
    // Only a command with a slash is a path (relative to the kubeconfig); a bare name is looked up in PATH.
    out.command =
        exec.command.find('/') != std::string::npos ? ResolvePath(exec.command, DirectoryOf(origin)) : exec.command;
    out.args = exec.args;
    out.env = exec.env;
    out.provide_cluster_info = exec.provide_cluster_info;
    out.install_hint = exec.install_hint;
    out.cluster_config_json = cluster.exec_extension_json;
    if (!exec.interactive_mode.empty()) {
        out.interactive_mode = exec.interactive_mode;
    } else if (exec.api_version == kExecApiV1) {
        // client.authentication.k8s.io/v1 has no default (kubectl refuses it too); v1beta1 defaults to IfAvailable.
        return EntryError(prefix, "exec: interactiveMode must be set for " + std::string(kExecApiV1));
    }
    Status valid = ValidateExecConfig(out);
    if (!valid.Ok())
        return EntryError(prefix, "exec: " + valid.Message());
    config.exec = std::move(out);
    return OkStatus();
}

Status ResolveUser(const Named<KubeconfigUser>& entry, const KubeconfigCluster& cluster, Config& config) {
    const KubeconfigUser& user = entry.value;
    const std::string prefix = EntryPrefix(entry.origin, "user", entry.name);
    if (!user.auth_provider.empty())
        return EntryError(
            prefix, "auth-provider " + Quote(user.auth_provider) + " is not supported; use an exec credential plugin");
    if (user.impersonates)
        return EntryError(prefix, "impersonation (as, as-uid, as-groups, as-user-extra) is not supported");
    const bool has_token = !user.token.empty() || !user.token_file.empty();
    const bool has_basic = !user.username.empty() || !user.password.empty();
    if (has_token && has_basic)
        return EntryError(prefix, "more than one authentication method: a token and username/password");

    CTRL_ASSIGN_OR_RETURN(config.tls.client_cert_pem, FileOrData(prefix, "client-certificate", user.client_certificate,
                                                                 user.client_certificate_data, entry.origin));
    CTRL_ASSIGN_OR_RETURN(config.tls.client_key_pem,
                          FileOrData(prefix, "client-key", user.client_key, user.client_key_data, entry.origin));
    if (!config.tls.client_cert_pem.empty() && config.tls.client_key_pem.empty())
        return EntryError(prefix, "client-certificate is set without client-key");
    if (config.tls.client_cert_pem.empty() && !config.tls.client_key_pem.empty())
        return EntryError(prefix, "client-key is set without client-certificate");

    config.bearer_token = user.token;
    if (!user.token_file.empty()) {
        // Read now so a missing file fails at load time (as in client-go); the authenticator re-reads it.
        config.bearer_token_file = ResolvePath(user.token_file, DirectoryOf(entry.origin));
        auto token = ReadWholeFile(config.bearer_token_file);
        if (!token.Ok())
            return EntryError(prefix, "tokenFile " + token.GetStatus().Message());
        config.bearer_token = std::string(TrimSpace(*token));
    }
    config.username = user.username;
    config.password = user.password;
    if (user.exec)
        CTRL_RETURN_IF_ERROR(ResolveExec(prefix, user, cluster, entry.origin, config));
    return OkStatus();
}

// client-go's DefaultServerURL: a server without a scheme gets https when TLS is configured, else http.
std::string ServerUrl(const std::string& server, const Config& config) {
    if (server.find("://") != std::string::npos)
        return server;
    const bool tls =
        !config.tls.ca_pem.empty() || !config.tls.client_cert_pem.empty() || config.tls.insecure_skip_verify;
    return (tls ? "https://" : "http://") + server;
}

}  // namespace

StatusOr<Config> ResolveContext(const Named<KubeconfigContext>& context, const Named<KubeconfigCluster>& cluster,
                                const Named<KubeconfigUser>& user) {
    Config config;
    const std::string& namespace_name = context.value.namespace_name;
    if (!namespace_name.empty()) {
        if (!IsDns1123Label(namespace_name))
            return EntryError(EntryPrefix(context.origin, "context", context.name),
                              "namespace " + Quote(namespace_name) + " is not a valid DNS-1123 label");
        config.default_namespace = namespace_name;
    }
    CTRL_RETURN_IF_ERROR(ResolveCluster(cluster, config));
    CTRL_RETURN_IF_ERROR(ResolveUser(user, cluster.value, config));
    config.host = ServerUrl(config.host, config);
    config.source = "kubeconfig " + context.origin + ", context " + Quote(context.name);
    return config;
}

}  // namespace ctrl::rest::internal
