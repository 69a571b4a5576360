#pragma once

#include <string_view>

#include "ctrl/metrics/registry.hpp"

namespace ctrl::discovery {

// The `path_kind` label: which discovery request was sent.
inline constexpr std::string_view kPathKindAggregated = "aggregated";              // GET /api, /apis asking for v2
inline constexpr std::string_view kPathKindLegacyGroupList = "legacy_group_list";  // GET /api, /apis, plain JSON
inline constexpr std::string_view kPathKindGroupVersion = "group_version";         // GET /api/<v>, /apis/<g>/<v>
// The `result` label: success (a document was read), not_found (404), error (anything else, a
// malformed document included).
inline constexpr std::string_view kResultSuccess = "success";
inline constexpr std::string_view kResultNotFound = "not_found";
inline constexpr std::string_view kResultError = "error";

// The discovery client's metrics, one count and one duration per discovery request:
// ctrl_discovery_requests_total{path_kind,result} (every combination pre-set to 0) and
// ctrl_discovery_request_duration_seconds{path_kind} (request sent to document parsed; the buckets of
// rest_client_request_duration_seconds). Registering twice in one Registry shares the families.
struct DiscoveryMetrics {
    explicit DiscoveryMetrics(metrics::Registry& registry);

    // The count of one series: for tests and benchmarks that assert how many requests were sent.
    double Requests(std::string_view path_kind, std::string_view result) const;
    // Requests of a path kind, all results together.
    double Requests(std::string_view path_kind) const;

    metrics::CounterFamily requests_total;
    metrics::HistogramFamily request_duration_seconds;
};

}  // namespace ctrl::discovery
