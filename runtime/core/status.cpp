#include "ctrl/core/status.hpp"

#include <utility>

namespace ctrl {
namespace {

const std::string& EmptyString() {
    static const std::string kEmpty;
    return kEmpty;
}

const std::vector<StatusCause>& EmptyCauses() {
    static const std::vector<StatusCause> kEmpty;
    return kEmpty;
}

}  // namespace

std::string_view StatusCodeName(StatusCode code) {
    switch (code) {
        case StatusCode::kOk:
            return "OK";
        case StatusCode::kCancelled:
            return "Cancelled";
        case StatusCode::kUnknown:
            return "Unknown";
        case StatusCode::kBadRequest:
            return "BadRequest";
        case StatusCode::kInvalid:
            return "Invalid";
        case StatusCode::kNotFound:
            return "NotFound";
        case StatusCode::kAlreadyExists:
            return "AlreadyExists";
        case StatusCode::kConflict:
            return "Conflict";
        case StatusCode::kGone:
            return "Gone";
        case StatusCode::kForbidden:
            return "Forbidden";
        case StatusCode::kUnauthorized:
            return "Unauthorized";
        case StatusCode::kMethodNotAllowed:
            return "MethodNotAllowed";
        case StatusCode::kTooManyRequests:
            return "TooManyRequests";
        case StatusCode::kTimeout:
            return "Timeout";
        case StatusCode::kUnavailable:
            return "Unavailable";
        case StatusCode::kNoMatch:
            return "NoMatch";
        case StatusCode::kInternal:
            return "Internal";
    }
    return "Unknown";
}

Status::Status(StatusCode code, std::string message) {
    if (code == StatusCode::kOk)
        return;
    auto rep = std::make_shared<Rep>();
    rep->code = code;
    rep->message = std::move(message);
    rep_ = std::move(rep);
}

const std::string& Status::Message() const {
    return rep_ ? rep_->message : EmptyString();
}
const std::string& Status::Reason() const {
    return rep_ ? rep_->reason : EmptyString();
}
const std::vector<StatusCause>& Status::Causes() const {
    return rep_ ? rep_->causes : EmptyCauses();
}

Status::Rep& Status::MutableRep() {
    // Copy on write: a Status may be shared by many copies.
    auto copy = std::make_shared<Rep>(*rep_);
    Rep& ref = *copy;
    rep_ = std::move(copy);
    return ref;
}

Status Status::WithHttpCode(int http_code) const {
    if (Ok())
        return *this;
    Status out = *this;
    out.MutableRep().http_code = http_code;
    return out;
}

Status Status::WithReason(std::string reason) const {
    if (Ok())
        return *this;
    Status out = *this;
    out.MutableRep().reason = std::move(reason);
    return out;
}

Status Status::WithCauses(std::vector<StatusCause> causes) const {
    if (Ok())
        return *this;
    Status out = *this;
    out.MutableRep().causes = std::move(causes);
    return out;
}

Status Status::WithRetryAfter(std::chrono::seconds retry_after) const {
    if (Ok())
        return *this;
    Status out = *this;
    out.MutableRep().retry_after = retry_after;
    return out;
}

Status Status::WithTerminal(bool terminal) const {
    if (Ok())
        return *this;
    Status out = *this;
    out.MutableRep().terminal = terminal;
    return out;
}

Status Status::Annotate(std::string_view context) const {
    if (Ok() || context.empty())
        return *this;
    Status out = *this;
    Rep& rep = out.MutableRep();
    std::string message(context);
    if (!rep.message.empty()) {
        message += ": ";
        message += rep.message;
    }
    rep.message = std::move(message);
    return out;
}

std::string Status::ToString() const {
    if (Ok())
        return "OK";
    std::string out(StatusCodeName(rep_->code));
    if (!rep_->message.empty()) {
        out += ": ";
        out += rep_->message;
    }
    for (const StatusCause& cause : rep_->causes) {
        out += "; ";
        if (!cause.field.empty())
            out += cause.field + ": ";
        out += cause.message.empty() ? cause.type : cause.message;
    }
    if (rep_->http_code != 0)
        out += " (HTTP " + std::to_string(rep_->http_code) + ")";
    if (rep_->retry_after)
        out += " (retry after " + std::to_string(rep_->retry_after->count()) + "s)";
    if (rep_->terminal)
        out += " (terminal)";
    return out;
}

bool operator==(const Status& a, const Status& b) {
    if (a.rep_ == b.rep_)
        return true;
    if (!a.rep_ || !b.rep_)
        return false;
    const Status::Rep& x = *a.rep_;
    const Status::Rep& y = *b.rep_;
    return x.code == y.code && x.message == y.message && x.http_code == y.http_code && x.reason == y.reason &&
           x.causes == y.causes && x.retry_after == y.retry_after && x.terminal == y.terminal;
}

std::ostream& operator<<(std::ostream& os, const Status& status) {
    return os << status.ToString();
}

Status CancelledError(std::string message) {
    return {StatusCode::kCancelled, std::move(message)};
}
Status UnknownError(std::string message) {
    return {StatusCode::kUnknown, std::move(message)};
}
Status BadRequestError(std::string message) {
    return {StatusCode::kBadRequest, std::move(message)};
}
Status InvalidError(std::string message, std::vector<StatusCause> causes) {
    return Status(StatusCode::kInvalid, std::move(message)).WithCauses(std::move(causes));
}
Status NotFoundError(std::string message) {
    return {StatusCode::kNotFound, std::move(message)};
}
Status AlreadyExistsError(std::string message) {
    return {StatusCode::kAlreadyExists, std::move(message)};
}
Status ConflictError(std::string message) {
    return {StatusCode::kConflict, std::move(message)};
}
Status GoneError(std::string message) {
    return {StatusCode::kGone, std::move(message)};
}
Status ForbiddenError(std::string message) {
    return {StatusCode::kForbidden, std::move(message)};
}
Status UnauthorizedError(std::string message) {
    return {StatusCode::kUnauthorized, std::move(message)};
}
Status TooManyRequestsError(std::string message, std::optional<std::chrono::seconds> retry_after) {
    Status status(StatusCode::kTooManyRequests, std::move(message));
    return retry_after ? status.WithRetryAfter(*retry_after) : status;
}
Status TimeoutError(std::string message) {
    return {StatusCode::kTimeout, std::move(message)};
}
Status UnavailableError(std::string message) {
    return {StatusCode::kUnavailable, std::move(message)};
}
Status NoMatchError(std::string message) {
    return {StatusCode::kNoMatch, std::move(message)};
}
Status InternalError(std::string message) {
    return {StatusCode::kInternal, std::move(message)};
}

Status IgnoreNotFound(const Status& status) {
    return IsNotFound(status) ? OkStatus() : status;
}

Status Terminal(const Status& status) {
    return status.WithTerminal(true);
}

}  // namespace ctrl
