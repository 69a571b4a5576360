#pragma once

#include <string_view>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::rest {

// The Status code for a Kubernetes StatusReason ("NotFound", "Expired", ...) with its HTTP
// code; an unknown or empty reason is classified by the HTTP code alone.
StatusCode CodeForReason(std::string_view reason, int http_code);

// A metav1.Status object (from an error response or a watch ERROR event) as a ctrl::Status:
// code from reason and code, the server's message, reason, HTTP code, field causes and
// details.retryAfterSeconds. http_code is used when the object carries none.
Status StatusFromApiStatus(const Object& api_status, int http_code);

// The outcome of a response: OK for 2xx; otherwise the server's metav1.Status when the body is
// one, else the HTTP code with a short, printable snippet of the body (an HTML page from a
// proxy, say). A Retry-After header is kept. what names the request for the message
// ("GET https://host/api/v1/pods").
Status StatusFromResponse(const HttpResponse& response, std::string_view what);

// Whether a response is an HTML page (its Content-Type says so, or, without a Content-Type, its body
// starts with '<'): a proxy's error page or a login page, never an API answer.
bool IsHtmlResponse(const HttpResponse& response);

// StatusFromResponse for a request that wants JSON: a 2xx answer that is an HTML page (a login page,
// a captive portal) is Internal too, naming the request, the HTTP code, that the body is not JSON,
// and a snippet of it.
Status StatusFromJsonResponse(const HttpResponse& response, std::string_view what);

}  // namespace ctrl::rest
