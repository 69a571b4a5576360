#include "ctrl/server/auth_filter.hpp"

#include <openssl/evp.h>

#include <string>
#include <utility>

#include "ctrl/log/log.hpp"
#include "ctrl/server/internal/review_cache.hpp"

namespace ctrl::server {
namespace {

using Clock = std::chrono::steady_clock;

// The bearer token of an Authorization header value, or "" (the scheme is case-insensitive).
std::string BearerToken(std::string_view header) {
    if (header.size() < 7)
        return "";
    std::string scheme(header.substr(0, 7));
    for (char& c : scheme)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (scheme != "bearer ")
        return "";
    std::string_view token = header.substr(7);
    while (!token.empty() && token.front() == ' ')
        token.remove_prefix(1);
    while (!token.empty() && token.back() == ' ')
        token.remove_suffix(1);
    return std::string(token);
}

// The hex SHA-256 of text: the cache key of a token.
std::string Digest(std::string_view text) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_Digest(text.data(), text.size(), digest, &size, EVP_sha256(), nullptr);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (unsigned int i = 0; i < size; ++i) {
        hex += kHex[digest[i] >> 4];
        hex += kHex[digest[i] & 0xf];
    }
    return hex;
}

// What the filter keeps between requests.
struct Filter {
    Filter(std::shared_ptr<AccessReviewer> reviewer_in, HttpHandler next_in, AuthFilterOptions options_in)
        : reviewer(std::move(reviewer_in)),
          next(std::move(next_in)),
          options(options_in),
          users(options.max_entries),
          verdicts(options.max_entries) {}

    Task<ServerResponse> Serve(const ServerRequest& request);

    const std::shared_ptr<AccessReviewer> reviewer;
    const HttpHandler next;
    const AuthFilterOptions options;
    internal::ReviewCache<TokenUser> users;  // by token digest
    internal::ReviewCache<bool> verdicts;    // by token digest + "\n" + path
    const log::Logger logger = log::Logger().WithName("manager").WithName("metrics-auth");
};

Task<ServerResponse> Filter::Serve(const ServerRequest& request) {
    const std::optional<std::string_view> header = request.Header("Authorization");
    const std::string token = header ? BearerToken(*header) : "";
    if (token.empty())
        co_return TextResponse(401, "Unauthorized\n");
    const std::string key = Digest(token);
    std::optional<TokenUser> user = users.Get(key, Clock::now());
    if (!user) {
        Context ctx = Context::WithTimeout(request.ctx, options.review_timeout);
        StatusOr<TokenUser> reviewed = co_await reviewer->ReviewToken(ctx, token);
        if (!reviewed.Ok()) {
            logger.Error(reviewed.GetStatus(), "authentication failed: cannot review the token", "path", request.path);
            co_return TextResponse(500, "Authentication failed\n");
        }
        const auto ttl = reviewed->authenticated ? options.authenticated_ttl : options.unauthenticated_ttl;
        users.Put(key, *reviewed, Clock::now() + ttl, Clock::now());
        user = std::move(*reviewed);
    }
    if (!user->authenticated)
        co_return TextResponse(401, "Unauthorized\n");
    const std::string verdict_key = key + "\n" + request.path;
    std::optional<bool> allowed = verdicts.Get(verdict_key, Clock::now());
    if (!allowed) {
        Context ctx = Context::WithTimeout(request.ctx, options.review_timeout);
        TokenUser subject = *user;
        std::string verb = "get";
        std::string path = request.path;
        StatusOr<bool> reviewed = co_await reviewer->ReviewAccess(ctx, subject, verb, path);
        if (!reviewed.Ok()) {
            logger.Error(reviewed.GetStatus(), "authorization failed: cannot review access", "user", user->username,
                         "path", request.path);
            co_return TextResponse(500, "Authorization failed\n");
        }
        verdicts.Put(verdict_key, *reviewed, Clock::now() + (*reviewed ? options.allowed_ttl : options.denied_ttl),
                     Clock::now());
        allowed = *reviewed;
    }
    if (!*allowed) {
        logger.V(1).Info("denied", "user", user->username, "path", request.path);
        co_return TextResponse(403, "Authorization denied for user " + user->username + "\n");
    }
    co_return co_await next(request);
}

}  // namespace

HttpHandler WithAuthenticationAndAuthorization(std::shared_ptr<AccessReviewer> reviewer, HttpHandler next,
                                               AuthFilterOptions options) {
    auto filter = std::make_shared<Filter>(std::move(reviewer), std::move(next), options);
    return [filter](const ServerRequest& request) -> Task<ServerResponse> { return filter->Serve(request); };
}

}  // namespace ctrl::server
