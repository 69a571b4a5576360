#pragma once

#include <chrono>
#include <string>

#include "ctrl/core/status_or.hpp"

namespace ctrl::envtest::internal {

// The client side of a TLS connection to the local apiserver: PEM files.
struct TlsFiles {
    std::string ca{};
    std::string cert{};
    std::string key{};
};

// What a server answered.
struct HttpGetResult {
    int http_code = 0;
    std::string body{};
};

// GET of `url` with curl (the project has no HTTP client of its own below the rest layer), never
// through a proxy; `tls` is used for https URLs. Unavailable when no answer came (refused,
// timed out); any HTTP status is a result.
StatusOr<HttpGetResult> HttpGet(const std::string& url, const TlsFiles& tls, std::chrono::milliseconds timeout);

}  // namespace ctrl::envtest::internal
