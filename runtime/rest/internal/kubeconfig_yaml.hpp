#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::rest::internal {

// One kubeconfig file as written (clientcmd/api/v1 Config): what the loader merges and resolves.
// Strings are "" when the field is absent or null; *_data fields are still base64; paths are
// still as written (relative ones are resolved against the file's directory by the loader).
struct KubeconfigCluster {
    std::string server;
    std::string certificate_authority;
    std::string certificate_authority_data;
    bool insecure_skip_tls_verify = false;
    std::string tls_server_name;
    std::string proxy_url;
    std::string exec_extension_json;  // extensions[name=client.authentication.k8s.io/exec] as JSON
};

struct KubeconfigExec {
    std::string api_version;
    std::string command;
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> env;
    std::string install_hint;
    bool provide_cluster_info = false;
    std::string interactive_mode;  // "" when not written
};

struct KubeconfigUser {
    std::string client_certificate;
    std::string client_certificate_data;
    std::string client_key;
    std::string client_key_data;
    std::string token;
    std::string token_file;
    std::string username;
    std::string password;
    std::optional<KubeconfigExec> exec;
    std::string auth_provider;  // auth-provider.name; "" when none
    bool impersonates = false;  // as / as-uid / as-groups / as-user-extra
};

struct KubeconfigContext {
    std::string cluster;
    std::string user;
    std::string namespace_name;
};

// A named entry and the file that defined it (client-go's LocationOfOrigin).
template <typename T>
struct Named {
    std::string name;
    std::string origin;
    T value;
};

struct KubeconfigFile {
    std::string path;
    std::string current_context;
    std::vector<Named<KubeconfigCluster>> clusters;
    std::vector<Named<KubeconfigUser>> users;
    std::vector<Named<KubeconfigContext>> contexts;
};

// Parses a kubeconfig's text (YAML or JSON). Empty text is an empty config, as in client-go.
// Unknown fields are ignored; a field of the wrong shape, a list entry without a name, a duplicate
// name or malformed YAML is BadRequest: "kubeconfig <path>: users[1].user.exec.args: expected a list
// (line 12, column 7)". yaml-cpp's exceptions never leave this function.
StatusOr<KubeconfigFile> ParseKubeconfig(std::string_view text, const std::string& path);

}  // namespace ctrl::rest::internal
