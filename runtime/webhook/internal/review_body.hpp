#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/server/http_exchange.hpp"

namespace ctrl::webhook::internal {

// The kind of review a webhook reads: its kind and the apiVersions it comes in.
struct ReviewKind {
    std::string_view kind;     // "AdmissionReview"
    std::string_view v1;       // "admission.k8s.io/v1"
    std::string_view v1beta1;  // "admission.k8s.io/v1beta1"
};

// The body parsed as a review of that kind, with a request. BadRequest, starting with the kind,
// naming what is wrong: an empty body, not JSON, not a JSON object, another kind or apiVersion,
// no request.
StatusOr<Object> ParseReview(std::string_view body, const ReviewKind& kind);

// Why a webhook cannot read the request's body ("contentType=text/plain, expected
// application/json"); nullopt when it is JSON.
std::optional<std::string> ContentTypeProblem(const server::ServerRequest& request);

// A JSON answer (a review) with HTTP 200.
server::ServerResponse JsonAnswer(std::string body);

}  // namespace ctrl::webhook::internal
