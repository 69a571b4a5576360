#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::rest::internal {

// What the rest layer's log lines may show of a request, and those lines. Nothing here prints a
// credential: Authorization-like headers, userinfo in a server URL and query parameters whose names
// suggest a credential (access_token, ...) come out as "<redacted>". Bodies are never logged (they
// hold Secret data).

// The logger of requests made under ctx: the context's logger, named "rest".
log::Logger RequestLogger(const Context& ctx);

// server + target with credentials redacted: "https://<redacted>@h:6443/api?access_token=<redacted>".
std::string LoggedUrl(std::string_view server, std::string_view target);

// Whether a header carries a credential (Authorization, Proxy-Authorization, Cookie, ...).
bool IsCredentialHeader(std::string_view name);

// V(7): the headers of a request about to be sent, credentials redacted.
void LogRequestHeaders(const Context& ctx, std::string_view server, const HttpRequest& request);

// V(6): one request's outcome as client-go prints it: verb, URL, status (or the error), latency.
void LogResponse(const Context& ctx, std::string_view server, const HttpRequest& request, int status,
                 const Status& error, std::chrono::steady_clock::duration latency);

}  // namespace ctrl::rest::internal
