#pragma once

#include <string_view>

namespace ctrl::discovery::internal {

// The Accept header that asks GET /api and GET /apis for aggregated discovery: apidiscovery.k8s.io v2,
// else v2beta1, else the legacy documents (what kubectl sends).
inline constexpr std::string_view kAggregatedDiscoveryAccept =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
    "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,"
    "application/json";
// The Accept header of every legacy discovery request.
inline constexpr std::string_view kJsonAccept = "application/json";

// Whether a response's Content-Type says the body is aggregated discovery: media type application/json
// with the parameters g=apidiscovery.k8s.io and as=APIGroupDiscoveryList, in any order and any version
// v. Type and parameter names are case-insensitive; values may be quoted. A plain "application/json"
// is not (the body's kind then decides).
bool IsAggregatedDiscoveryContentType(std::string_view content_type);

}  // namespace ctrl::discovery::internal
