#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ctrl/client/client.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::server {

// Who a bearer token belongs to, as a TokenReview's status.user says.
struct TokenUser {
    bool authenticated = false;  // false: the token is not valid (the other fields are empty)
    std::string username;
    std::string uid;
    std::vector<std::string> groups;
};

// Asks the API server who a token is and what that user may do (the delegated authentication
// and authorization of Kubernetes' apiserver library, which controller-runtime's
// WithAuthenticationAndAuthorization uses). Errors are those of the call (Unavailable, Timeout,
// Forbidden when this process may not create reviews); a verdict is never an error.
class AccessReviewer {
  public:
    virtual ~AccessReviewer() = default;
    // Creates an authentication.k8s.io/v1 TokenReview of token.
    virtual Task<StatusOr<TokenUser>> ReviewToken(Context ctx, std::string token) = 0;
    // Creates an authorization.k8s.io/v1 SubjectAccessReview of user doing verb on the
    // non-resource URL path; true when allowed.
    virtual Task<StatusOr<bool>> ReviewAccess(Context ctx, TokenUser user, std::string verb, std::string path) = 0;
};

// An AccessReviewer that creates the reviews through client (unstructured objects). The client
// must outlive it. The process's identity needs RBAC to create tokenreviews and
// subjectaccessreviews (controller-runtime's metrics-auth-role).
std::shared_ptr<AccessReviewer> NewClientAccessReviewer(client::Client& client);

}  // namespace ctrl::server
