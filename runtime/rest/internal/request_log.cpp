#include "ctrl/rest/internal/request_log.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace ctrl::rest::internal {
namespace {

constexpr std::string_view kRedacted = "<redacted>";

std::string Lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

// A query parameter or header name that may carry a credential.
bool NamesCredential(std::string_view name) {
    static constexpr std::array<std::string_view, 7> kWords = {"token",      "password", "passwd",   "secret",
                                                               "credential", "auth",     "signature"};
    const std::string lower = Lower(name);
    return std::any_of(kWords.begin(), kWords.end(),
                       [&](std::string_view word) { return lower.find(word) != std::string::npos; });
}

// "https://user:pass@host:port/x" -> "https://<redacted>@host:port/x".
std::string RedactUserinfo(std::string_view server) {
    const std::size_t scheme = server.find("://");
    const std::size_t start = scheme == std::string_view::npos ? 0 : scheme + 3;
    const std::size_t end = std::min(server.find('/', start), server.size());
    const std::size_t at = server.substr(0, end).rfind('@');
    if (at == std::string_view::npos || at < start)
        return std::string(server);
    return std::string(server.substr(0, start)) + std::string(kRedacted) + std::string(server.substr(at));
}

// "/p?a=1&access_token=x" -> "/p?a=1&access_token=<redacted>".
std::string RedactQuery(std::string_view target) {
    const std::size_t query = target.find('?');
    if (query == std::string_view::npos)
        return std::string(target);
    std::string out(target.substr(0, query + 1));
    std::string_view rest = target.substr(query + 1);
    bool first = true;
    while (true) {
        const std::size_t amp = rest.find('&');
        const std::string_view pair = rest.substr(0, amp);
        if (!first)
            out.push_back('&');
        first = false;
        const std::size_t eq = pair.find('=');
        if (eq != std::string_view::npos && NamesCredential(pair.substr(0, eq))) {
            out += pair.substr(0, eq + 1);
            out += kRedacted;
        } else {
            out += pair;
        }
        if (amp == std::string_view::npos)
            break;
        rest.remove_prefix(amp + 1);
    }
    return out;
}

}  // namespace

log::Logger RequestLogger(const Context& ctx) {
    return log::FromContext(ctx).WithName("rest");
}

std::string LoggedUrl(std::string_view server, std::string_view target) {
    return RedactUserinfo(server) + RedactQuery(target);
}

bool IsCredentialHeader(std::string_view name) {
    const std::string lower = Lower(name);
    return lower == "cookie" || lower == "set-cookie" || NamesCredential(lower);
}

void LogRequestHeaders(const Context& ctx, std::string_view server, const HttpRequest& request) {
    if (log::Verbosity() < 7)  // before looking up the context's logger: this runs for every request
        return;
    const log::Logger logger = RequestLogger(ctx).V(7);
    if (!logger.Enabled())
        return;
    log::Logger with_headers = logger.WithValues("verb", request.method, "url", LoggedUrl(server, request.target));
    for (const Header& header : request.headers) {
        if (IsCredentialHeader(header.name)) {
            with_headers = with_headers.WithValues(header.name, log::Redacted{});
        } else {
            with_headers = with_headers.WithValues(header.name, header.value);
        }
    }
    with_headers.Info("request headers");
}

void LogResponse(const Context& ctx, std::string_view server, const HttpRequest& request, int status,
                 const Status& error, std::chrono::steady_clock::duration latency) {
    if (log::Verbosity() < 6)
        return;
    const log::Logger logger = RequestLogger(ctx).V(6);
    if (!logger.Enabled())
        return;
    const std::string url = LoggedUrl(server, request.target);
    if (error.Ok()) {
        logger.Info("request", "verb", request.method, "url", url, "status", status, "latency", latency);
    } else {
        logger.Info("request", "verb", request.method, "url", url, "err", error, "latency", latency);
    }
}

}  // namespace ctrl::rest::internal
