#pragma once

#include <string>

#include "ctrl/metrics/registry.hpp"

namespace ctrl::rest {

// The REST client's metrics, named and labelled as client-go's so existing dashboards work:
// rest_client_requests_total{code,method,host}, rest_client_request_duration_seconds{verb,host},
// rest_client_rate_limiter_duration_seconds{verb,host}, rest_client_request_retries_total{code,verb,host}.
struct RestMetrics {
    explicit RestMetrics(metrics::Registry& registry);

    metrics::CounterFamily requests_total;
    metrics::HistogramFamily request_duration_seconds;
    metrics::HistogramFamily rate_limiter_duration_seconds;
    metrics::CounterFamily request_retries_total;
};

// The `code` label of a request that got no response, as client-go spells it.
inline constexpr char kErrorCodeLabel[] = "<error>";

}  // namespace ctrl::rest
