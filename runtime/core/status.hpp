#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ctrl {

// What went wrong, chosen by what the caller should do about it. The names follow the
// Kubernetes API's StatusReasons; NoMatch is the RESTMapper's "no such kind".
enum class StatusCode {
    kOk,
    kCancelled,         // the caller's context was cancelled
    kUnknown,           // not classified; see the message and HTTP code
    kBadRequest,        // malformed input: bad JSON, bad selector, bad kubeconfig (HTTP 400)
    kInvalid,           // the object failed validation; Causes() say which fields (HTTP 422)
    kNotFound,          // HTTP 404
    kAlreadyExists,     // HTTP 409, reason AlreadyExists
    kConflict,          // HTTP 409: stale resourceVersion or a field-manager conflict
    kGone,              // HTTP 410: Gone or Expired (resourceVersion too old, expired continue)
    kForbidden,         // HTTP 403
    kUnauthorized,      // HTTP 401
    kMethodNotAllowed,  // HTTP 405
    kTooManyRequests,   // HTTP 429; RetryAfter() says when
    kTimeout,           // HTTP 504, server timeout, or a client-side deadline
    kUnavailable,       // HTTP 503, connection failure: retriable
    kNoMatch,           // the RESTMapper knows no resource for the kind
    kInternal,          // HTTP 500, or a bug
};

// The name of a code as Kubernetes spells the reason ("NotFound", "NoMatch", ...).
std::string_view StatusCodeName(StatusCode code);

// One field-level reason an object was rejected (metav1.StatusCause).
struct StatusCause {
    std::string type;     // e.g. "FieldValueRequired"
    std::string message;  // e.g. "Required value"
    std::string field;    // e.g. "metadata.name"

    bool operator==(const StatusCause&) const = default;
};

// The outcome of a fallible call: OK, or a code with a message and, when it came from the API
// server, the HTTP code, the server's reason, field causes and Retry-After. Cheap to copy; OK
// holds no allocation.
class [[nodiscard]] Status {
  public:
    Status() = default;
    Status(StatusCode code, std::string message);

    bool Ok() const { return rep_ == nullptr; }
    StatusCode Code() const { return rep_ ? rep_->code : StatusCode::kOk; }
    const std::string& Message() const;
    // The HTTP status the server answered with; 0 when the error did not come from a response.
    int HttpCode() const { return rep_ ? rep_->http_code : 0; }
    // The server's reason string as sent ("Expired", "NotFound", ...); empty when none.
    const std::string& Reason() const;
    const std::vector<StatusCause>& Causes() const;
    std::optional<std::chrono::seconds> RetryAfter() const { return rep_ ? rep_->retry_after : std::nullopt; }
    // A terminal error is not retried by a controller (reconcile.TerminalError).
    bool IsTerminal() const { return rep_ && rep_->terminal; }

    Status WithHttpCode(int http_code) const;
    Status WithReason(std::string reason) const;
    Status WithCauses(std::vector<StatusCause> causes) const;
    Status WithRetryAfter(std::chrono::seconds retry_after) const;
    Status WithTerminal(bool terminal) const;
    // Prefixes the message with context: "reading kubeconfig /x: <message>". OK stays OK.
    Status Annotate(std::string_view context) const;

    // "NotFound: pods \"x\" not found (HTTP 404)"; "OK" when OK.
    std::string ToString() const;

    friend bool operator==(const Status& a, const Status& b);

  private:
    struct Rep {
        StatusCode code = StatusCode::kUnknown;
        std::string message;
        int http_code = 0;
        std::string reason;
        std::vector<StatusCause> causes;
        std::optional<std::chrono::seconds> retry_after;
        bool terminal = false;
    };
    Rep& MutableRep();

    std::shared_ptr<const Rep> rep_;
};

std::ostream& operator<<(std::ostream& os, const Status& status);

inline Status OkStatus() {
    return Status();
}

Status CancelledError(std::string message);
Status UnknownError(std::string message);
Status BadRequestError(std::string message);
Status InvalidError(std::string message, std::vector<StatusCause> causes = {});
Status NotFoundError(std::string message);
Status AlreadyExistsError(std::string message);
Status ConflictError(std::string message);
Status GoneError(std::string message);
Status ForbiddenError(std::string message);
Status UnauthorizedError(std::string message);
Status TooManyRequestsError(std::string message, std::optional<std::chrono::seconds> retry_after = {});
Status TimeoutError(std::string message);
Status UnavailableError(std::string message);
Status NoMatchError(std::string message);
Status InternalError(std::string message);

inline bool IsCancelled(const Status& s) {
    return s.Code() == StatusCode::kCancelled;
}
inline bool IsBadRequest(const Status& s) {
    return s.Code() == StatusCode::kBadRequest;
}
inline bool IsInvalid(const Status& s) {
    return s.Code() == StatusCode::kInvalid;
}
inline bool IsNotFound(const Status& s) {
    return s.Code() == StatusCode::kNotFound;
}
inline bool IsAlreadyExists(const Status& s) {
    return s.Code() == StatusCode::kAlreadyExists;
}
inline bool IsConflict(const Status& s) {
    return s.Code() == StatusCode::kConflict;
}
inline bool IsGone(const Status& s) {
    return s.Code() == StatusCode::kGone;
}
inline bool IsForbidden(const Status& s) {
    return s.Code() == StatusCode::kForbidden;
}
inline bool IsUnauthorized(const Status& s) {
    return s.Code() == StatusCode::kUnauthorized;
}
inline bool IsTooManyRequests(const Status& s) {
    return s.Code() == StatusCode::kTooManyRequests;
}
inline bool IsTimeout(const Status& s) {
    return s.Code() == StatusCode::kTimeout;
}
inline bool IsUnavailable(const Status& s) {
    return s.Code() == StatusCode::kUnavailable;
}
inline bool IsNoMatch(const Status& s) {
    return s.Code() == StatusCode::kNoMatch;
}
inline bool IsInternal(const Status& s) {
    return s.Code() == StatusCode::kInternal;
}
inline bool IsTerminal(const Status& s) {
    return s.IsTerminal();
}

// OK when the status is OK or NotFound: for deletes and reads where absence is fine.
Status IgnoreNotFound(const Status& status);
// Marks an error terminal: a controller logs and counts it but does not requeue.
Status Terminal(const Status& status);

}  // namespace ctrl
