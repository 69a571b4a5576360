#include "ctrl/rest/api_status.hpp"

#include <cctype>
#include <charconv>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/protobuf/transcode.hpp"

namespace ctrl::rest {
namespace {

constexpr std::size_t kSnippetBytes = 256;

StatusCode CodeForHttp(int http_code) {
    switch (http_code) {
        case 400:
            return StatusCode::kBadRequest;
        case 401:
            return StatusCode::kUnauthorized;
        case 403:
            return StatusCode::kForbidden;
        case 404:
            return StatusCode::kNotFound;
        case 405:
            return StatusCode::kMethodNotAllowed;
        case 406:
        case 413:
        case 415:
            return StatusCode::kBadRequest;
        case 409:
            return StatusCode::kConflict;
        case 410:
            return StatusCode::kGone;
        case 422:
            return StatusCode::kInvalid;
        case 429:
            return StatusCode::kTooManyRequests;
        case 500:
            return StatusCode::kInternal;
        case 503:
            return StatusCode::kUnavailable;
        case 504:
            return StatusCode::kTimeout;
        default:
            break;
    }
    if (http_code >= 500)
        return StatusCode::kInternal;
    return StatusCode::kUnknown;
}

// Printable text of at most kSnippetBytes: control bytes become spaces, runs of white space fold.
std::string Snippet(std::string_view body) {
    std::string out;
    for (char c : body) {
        if (out.size() >= kSnippetBytes) {
            out += "...";
            break;
        }
        const bool space = static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
        if (space || c == ' ') {
            if (!out.empty() && out.back() != ' ')
                out += ' ';
        } else {
            out += c;
        }
    }
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

std::optional<std::chrono::seconds> ParseRetryAfter(std::optional<std::string_view> header) {
    if (!header)
        return std::nullopt;
    int64_t seconds = 0;
    auto [end, ec] = std::from_chars(header->data(), header->data() + header->size(), seconds);
    if (ec != std::errc() || end != header->data() + header->size() || seconds < 0)
        return std::nullopt;
    return std::chrono::seconds(seconds);
}

std::string Lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// " with a body that is not JSON (Content-Type text/html)", for a message.
std::string NotJson(const HttpResponse& response) {
    const std::optional<std::string_view> type = response.FindHeader("Content-Type");
    return " with a body that is not JSON" +
           (type && !type->empty() ? " (Content-Type " + Snippet(type->substr(0, 64)) + ")" : std::string());
}

}  // namespace

bool IsHtmlResponse(const HttpResponse& response) {
    const std::string type = Lower(response.FindHeader("Content-Type").value_or(""));
    if (type.starts_with("text/html") || type.starts_with("application/xhtml"))
        return true;
    if (!type.empty())
        return false;  // JSON, or text a caller may have asked for (never sniffed)
    const std::size_t first = response.body.find_first_not_of(" \t\r\n");
    return first != std::string::npos && response.body[first] == '<';
}

Status StatusFromJsonResponse(const HttpResponse& response, std::string_view what) {
    if (response.status < 200 || response.status >= 300 || !IsHtmlResponse(response))
        return StatusFromResponse(response, what);
    std::string message = std::string(what) + ": the server answered HTTP " + std::to_string(response.status) +
                          NotJson(response) + ", an HTML page (a proxy or a login page?)";
    const std::string snippet = Snippet(response.body);
    if (!snippet.empty())
        message += ": " + snippet;
    return InternalError(std::move(message)).WithHttpCode(response.status);
}

StatusCode CodeForReason(std::string_view reason, int http_code) {
    if (reason == "NotFound")
        return StatusCode::kNotFound;
    if (reason == "AlreadyExists")
        return StatusCode::kAlreadyExists;
    if (reason == "Conflict")
        return StatusCode::kConflict;
    if (reason == "Gone" || reason == "Expired")
        return StatusCode::kGone;
    if (reason == "Invalid")
        return StatusCode::kInvalid;
    if (reason == "Forbidden")
        return StatusCode::kForbidden;
    if (reason == "Unauthorized")
        return StatusCode::kUnauthorized;
    if (reason == "TooManyRequests")
        return StatusCode::kTooManyRequests;
    if (reason == "Timeout" || reason == "ServerTimeout")
        return StatusCode::kTimeout;
    if (reason == "ServiceUnavailable")
        return StatusCode::kUnavailable;
    if (reason == "InternalError")
        return StatusCode::kInternal;
    if (reason == "BadRequest" || reason == "NotAcceptable" || reason == "UnsupportedMediaType" ||
        reason == "RequestEntityTooLarge") {
        return StatusCode::kBadRequest;
    }
    if (reason == "MethodNotAllowed")
        return StatusCode::kMethodNotAllowed;
    return CodeForHttp(http_code);
}

Status StatusFromApiStatus(const Object& api_status, int http_code) {
    const int code = static_cast<int>(api_status.NestedInt({"code"}).ValueOr(http_code));
    const std::string reason = api_status.NestedString({"reason"}).ValueOr(std::string());
    std::string message = api_status.NestedString({"message"}).ValueOr(std::string());
    if (message.empty())
        message = reason.empty() ? "the server answered HTTP " + std::to_string(code) : reason;

    Status status = Status(CodeForReason(reason, code), std::move(message)).WithHttpCode(code).WithReason(reason);
    if (status.Ok())
        return InternalError("the server sent a Status without a code").WithHttpCode(code);

    std::vector<StatusCause> causes;
    if (StatusOr<std::vector<Object>> items = api_status.NestedSlice({"details", "causes"}); items.Ok()) {
        for (const Object& item : *items) {
            causes.push_back({item.NestedString({"reason"}).ValueOr(std::string()),
                              item.NestedString({"message"}).ValueOr(std::string()),
                              item.NestedString({"field"}).ValueOr(std::string())});
        }
    }
    if (!causes.empty())
        status = status.WithCauses(std::move(causes));
    if (StatusOr<int64_t> retry = api_status.NestedInt({"details", "retryAfterSeconds"}); retry.Ok() && *retry > 0) {
        status = status.WithRetryAfter(std::chrono::seconds(*retry));
    }
    return status;
}

Status StatusFromResponse(const HttpResponse& response, std::string_view what) {
    if (response.status >= 200 && response.status < 300)
        return OkStatus();
    Status status;
    // An answer to an Accept of protobuf carries its Status in protobuf: read as the JSON it stands for.
    const std::optional<std::string_view> type = response.FindHeader("Content-Type");
    StatusOr<std::string> transcoded = type && type->starts_with("application/vnd.kubernetes.protobuf")
                                           ? protobuf::JsonForEnvelope(response.body)
                                           : StatusOr<std::string>(InvalidError("not protobuf"));
    StatusOr<Object> body = Object::Parse(transcoded.Ok() ? std::string_view(*transcoded) : response.body);
    if (body.Ok() && body->Kind() == "Status") {
        status = StatusFromApiStatus(*body, response.status);
    } else {
        std::string message = std::string(what) + ": the server answered HTTP " + std::to_string(response.status);
        if (!body.Ok() && !response.body.empty())
            message += NotJson(response);
        const std::string snippet = Snippet(response.body);
        if (!snippet.empty())
            message += ": " + snippet;
        status = Status(CodeForHttp(response.status), std::move(message)).WithHttpCode(response.status);
        if (status.Ok())
            status = UnknownError("unexpected HTTP " + std::to_string(response.status));
    }
    if (auto retry_after = ParseRetryAfter(response.FindHeader("Retry-After")); retry_after && !status.RetryAfter()) {
        status = status.WithRetryAfter(*retry_after);
    }
    return status;
}

}  // namespace ctrl::rest
