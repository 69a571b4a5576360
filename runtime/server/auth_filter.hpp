#pragma once

#include <chrono>
#include <cstddef>
#include <memory>

#include "ctrl/server/access_reviewer.hpp"
#include "ctrl/server/http_exchange.hpp"

namespace ctrl::server {

// How long the answers of the API server are kept. The defaults are those of Kubernetes'
// delegating authenticator and authorizer, which controller-runtime uses.
struct AuthFilterOptions {
    std::chrono::milliseconds authenticated_ttl{std::chrono::minutes(2)};     // a valid token
    std::chrono::milliseconds unauthenticated_ttl{std::chrono::seconds(10)};  // an invalid one
    std::chrono::milliseconds allowed_ttl{std::chrono::minutes(5)};           // an allowed user
    std::chrono::milliseconds denied_ttl{std::chrono::seconds(30)};           // a denied one
    std::size_t max_entries = 1024;                                           // per cache
    std::chrono::milliseconds review_timeout{std::chrono::seconds(10)};       // one review call
};

// Wraps next so that only callers the API server authorises reach it (controller-runtime's
// filters.WithAuthenticationAndAuthorization): the request's "Authorization: Bearer <token>"
// is reviewed with a TokenReview, then its user with a SubjectAccessReview for `get` on the
// request's path as a non-resource URL (a HEAD asks for get too). Answers:
//   no bearer token, or a token the server does not accept -> 401 "Unauthorized"
//   a user without the right                              -> 403 "Authorization denied for user <name>"
//   an error talking to the API server                    -> 500, logged (the token never is)
// Verdicts are cached by the token's SHA-256 digest, never the token itself.
HttpHandler WithAuthenticationAndAuthorization(std::shared_ptr<AccessReviewer> reviewer, HttpHandler next,
                                               AuthFilterOptions options = {});

}  // namespace ctrl::server
