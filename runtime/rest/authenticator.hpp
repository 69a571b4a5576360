#pragma once

#include <memory>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/rest/exec_credential.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::rest {

// Knows how to put one user's credentials on a request: the RestClient calls Authorize before
// sending each request and OnUnauthorized when the server answers 401. Implementations are
// thread-safe. Client certificates are not its business: they are part of the transport's TLS
// settings (Config.tls).
class Authenticator {
  public:
    virtual ~Authenticator() = default;

    // Sets the Authorization header unless the request already has one (a caller-chosen credential
    // wins, as in client-go). May suspend (an exec plugin runs); request must outlive the task.
    // Errors: Unauthorized when no credential can be had (a token file that cannot be read and was
    // never read, a failing exec plugin); BadRequest for an exec plugin that cannot run here; the
    // context's error when it ends first.
    virtual Task<Status> Authorize(Context ctx, HttpRequest& request) = 0;

    // The server rejected a request this authorized: drop cached credentials so the next Authorize
    // fetches fresh ones (re-run the exec plugin, re-read the token file). Does not block.
    virtual void OnUnauthorized() = 0;
};

// The authenticator for a Config, chosen as client-go does (the first that applies):
//  1. bearer_token_file: the file's token, re-read when the file changes (its inode, size or mtime,
//     checked on each request), at least once a minute, and after a 401; bearer_token is used until
//     the file has been read and while it cannot be read;
//  2. bearer_token: "Bearer <token>";
//  3. username/password: "Basic base64(user:password)";
//  4. exec: an ExecCredentialProvider (default options). Only plugins that return a token are
//     supported: one that returns only a client certificate gets Unauthorized, since the
//     transport's TLS identity is fixed when it is created; with both, the token is used;
//  5. none: requests go out as they are (client certificates, or anonymous).
// BadRequest when config.exec is invalid (see ValidateExecConfig).
StatusOr<std::shared_ptr<Authenticator>> NewAuthenticator(const Config& config);

// An exec authenticator over a provider the caller keeps (tests read RunCount(), choose options).
std::shared_ptr<Authenticator> NewExecAuthenticator(std::shared_ptr<ExecCredentialProvider> provider);

}  // namespace ctrl::rest
