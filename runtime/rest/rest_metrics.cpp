#include "ctrl/rest/rest_metrics.hpp"

namespace ctrl::rest {
namespace {

const std::vector<double>& LatencyBuckets() {
    static const std::vector<double> kBuckets = {0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60};
    return kBuckets;
}

}  // namespace

RestMetrics::RestMetrics(metrics::Registry& registry)
    : requests_total(registry.AddCounter("rest_client_requests_total",
                                         "Number of HTTP requests, partitioned by status code, method, and host.",
                                         {"code", "method", "host"})),
      request_duration_seconds(registry.AddHistogram("rest_client_request_duration_seconds",
                                                     "Request latency in seconds. Broken down by verb, and host.",
                                                     {"verb", "host"}, LatencyBuckets())),
      rate_limiter_duration_seconds(
          registry.AddHistogram("rest_client_rate_limiter_duration_seconds",
                                "Client side rate limiter latency in seconds. Broken down by verb, and host.",
                                {"verb", "host"}, LatencyBuckets())),
      request_retries_total(registry.AddCounter(
          "rest_client_request_retries_total", "Number of request retries, partitioned by status code, verb, and host.",
          {"code", "verb", "host"})) {}

}  // namespace ctrl::rest
