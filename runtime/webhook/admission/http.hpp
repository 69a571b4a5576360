#pragma once

#include "ctrl/server/http_exchange.hpp"
#include "ctrl/webhook/admission/handler.hpp"

namespace ctrl::webhook::admission {

// Serves an admission Handler over HTTP (POST of an AdmissionReview, controller-runtime's
// admission.Webhook.ServeHTTP): the body must be application/json; a body that is empty, not
// JSON or not an AdmissionReview is answered with a review that refuses with code 400 and says
// why; the handler's ctx ends at the API server's `timeout` query parameter; a handler that
// throws is answered with code 500. The answer is an AdmissionReview in the request's apiVersion.
server::HttpHandler Serve(Handler handler);

}  // namespace ctrl::webhook::admission
