#pragma once

#include <memory>

#include "ctrl/server/http_exchange.hpp"
#include "ctrl/webhook/conversion/registry.hpp"

namespace ctrl::webhook::conversion {

// controller-runtime's path of the conversion webhook: what a CRD's
// spec.conversion.webhook.clientConfig names.
inline constexpr std::string_view kPath = "/convert";

// Serves a conversion Registry over HTTP (POST of a ConversionReview, controller-runtime's
// conversion webhook handler). Every answer is HTTP 200 with a ConversionReview in the request's
// apiVersion: a body that is not application/json, empty, not JSON or not a ConversionReview gets
// a Failure with code 400 saying why (and no uid: there is none to echo); a conversion that fails
// gets a Failure with its message; one that throws, a Failure with code 500.
server::HttpHandler Serve(std::shared_ptr<const Registry> registry);

}  // namespace ctrl::webhook::conversion
