#include "ctrl/webhook/internal/review_body.hpp"

#include <utility>

namespace ctrl::webhook::internal {

StatusOr<Object> ParseReview(std::string_view body, const ReviewKind& kind) {
    const std::string name(kind.kind);
    if (body.empty())
        return BadRequestError(name + ": the request body is empty");
    StatusOr<Object> parsed = Object::Parse(body);
    if (!parsed.Ok())
        return BadRequestError(name + ": " + parsed.GetStatus().Message());
    if (!parsed->IsJsonObject())
        return BadRequestError(name + ": the body is not a JSON object");
    const std::string_view api_version = parsed->ApiVersion();
    if (parsed->Kind() != kind.kind || (api_version != kind.v1 && api_version != kind.v1beta1))
        return BadRequestError(name + ": the body is a " + std::string(api_version) + " " +
                               std::string(parsed->Kind()) + ", not an " + std::string(kind.v1) + " " + name);
    if (!parsed->HasNestedField({"request"}))
        return BadRequestError(name + ": no request");
    return parsed;
}

std::optional<std::string> ContentTypeProblem(const server::ServerRequest& request) {
    const std::optional<std::string_view> content_type = request.Header("Content-Type");
    if (content_type && content_type->starts_with("application/json"))
        return std::nullopt;
    return "contentType=" + std::string(content_type.value_or("")) + ", expected application/json";
}

server::ServerResponse JsonAnswer(std::string body) {
    server::ServerResponse response;
    response.content_type = "application/json";
    response.body = std::move(body);
    return response;
}

}  // namespace ctrl::webhook::internal
