#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::webhook::conversion {

// An apiextensions.k8s.io/v1 ConversionRequest: objects of one CRD, each in some version of it,
// to convert to one version.
struct Request {
    std::string uid;                  // echoed in the response
    std::string desired_api_version;  // "examples.ctrl.dev/v1beta1"
    std::vector<Object> objects;      // each a JSON object with apiVersion and kind
};

// A ConversionResponse: the converted objects, in the request's order, when result is OK
// (status Success); otherwise result says why (status Failure, its message: what the API server
// hands the client) and no object is returned.
struct Response {
    std::vector<Object> converted_objects;
    Status result;
};

// A decoded ConversionReview: the apiVersion it came in (apiextensions.k8s.io/v1 or v1beta1, which
// have the same shape; the answer uses the same) and its request.
struct Review {
    std::string api_version;
    Request request;
};

// Decodes a ConversionReview. BadRequest naming what is wrong: not JSON, not a ConversionReview of
// apiextensions.k8s.io/v1 or v1beta1, no request, no uid, no desiredAPIVersion, objects that are
// not a list, or an object that is not a JSON object with apiVersion and kind (naming its index).
StatusOr<Review> DecodeReview(std::string_view body);
// The ConversionReview answering request uid with response, in api_version (v1 when empty). A
// failure's result carries its message and an HTTP code: the Status's own, else 400 for
// BadRequest, 404 NotFound, 422 Invalid, 500 for the rest.
std::string EncodeReview(std::string_view api_version, std::string_view uid, const Response& response);

}  // namespace ctrl::webhook::conversion
