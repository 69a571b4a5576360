#pragma once

#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"

namespace ctrl::rest::internal {

// The API server a Beast transport talks to, parsed from TransportOptions::server:
// "https://127.0.0.1:6443", "http://localhost:8080", "https://[::1]:6443",
// "https://rancher.example.com/k8s/clusters/c-1" (a path is a prefix of every request target).
struct ServerUrl {
    bool tls = true;
    std::string host;       // without brackets: "127.0.0.1", "::1", "api.example.com"
    std::string port;       // explicit, or the scheme's default ("443", "80")
    std::string base_path;  // "" or "/k8s/clusters/c-1", without a trailing slash
    bool host_is_ip = false;
    std::string text;  // as given, without a trailing slash: for messages

    // The Host header: "127.0.0.1:6443", "[::1]:6443"; the port is left out when it is the default.
    std::string HostHeader() const;
};

// BadRequest naming the URL when it is not an http(s) URL with a host.
StatusOr<ServerUrl> ParseServerUrl(std::string_view server);

}  // namespace ctrl::rest::internal
