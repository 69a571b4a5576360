#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/core/context.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::server {

// A request as HttpServer hands it to a handler: the method, the target split into its path and
// query, and the header fields. Knows how to answer "what does the query say" the way Go's
// url.Values does (a key without '=' is present with an empty value; keys repeat).
struct ServerRequest {
    std::string method;  // "GET", "HEAD"; "POST" for a path registered with HandlePost
    std::string target;  // as sent: "/readyz?verbose&exclude=ping"
    std::string path;    // the target before '?', percent-decoded: "/readyz"
    std::string query;   // the target after '?', raw: "verbose&exclude=ping"
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;  // at most HttpServerOptions::max_body_bytes
    // Cancelled when the server stops: calls a handler makes derive their contexts from it.
    Context ctx = Context::Background();

    // The first header field with this name (case-insensitive), if any.
    std::optional<std::string_view> Header(std::string_view name) const;
    // Whether the query has key, with or without a value.
    bool HasQuery(std::string_view key) const;
    // Every value of key in the query, percent-decoded, in order.
    std::vector<std::string> QueryValues(std::string_view key) const;
};

// What a handler answers. HttpServer adds Content-Length, drops the body for HEAD, and adds
// X-Content-Type-Options: nosniff.
struct ServerResponse {
    int status = 200;
    std::string content_type = "text/plain; charset=utf-8";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;  // extra fields ("Content-Encoding")
};

// Serves one path (or a prefix of paths). Runs on the connection's strand, possibly on several
// connections at once: a handler must be thread-safe. The request outlives the returned Task.
// An exception escaping a handler is answered with 500.
using HttpHandler = std::function<Task<ServerResponse>(const ServerRequest&)>;

// A plain-text answer: `co_return TextResponse(404, "404 page not found\n");`.
ServerResponse TextResponse(int status, std::string body);

// Decodes %XX escapes and, when plus_is_space, '+' (query strings). Malformed escapes are kept
// as they are.
std::string PercentDecode(std::string_view text, bool plus_is_space);

}  // namespace ctrl::server
