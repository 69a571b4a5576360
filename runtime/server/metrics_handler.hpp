#pragma once

#include "ctrl/metrics/registry.hpp"
#include "ctrl/server/http_exchange.hpp"

namespace ctrl::server {

// Serves a metrics registry in the Prometheus text format 0.0.4 (what promhttp.HandlerFor
// serves at /metrics): Content-Type "text/plain; version=0.0.4; charset=utf-8", gzipped with
// "Content-Encoding: gzip" when the request's Accept-Encoding allows it. Each request renders
// the registry afresh (running its collect hooks). The registry must outlive the handler.
HttpHandler MetricsHandler(const metrics::Registry& registry);

// The Content-Type of the text format.
inline constexpr const char* kMetricsContentType = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace ctrl::server
