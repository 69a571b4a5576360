#include "ctrl/discovery/discovery_metrics.hpp"

#include <string>
#include <vector>

namespace ctrl::discovery {
namespace {

constexpr std::string_view kPathKinds[] = {kPathKindAggregated, kPathKindLegacyGroupList, kPathKindGroupVersion};
constexpr std::string_view kResults[] = {kResultSuccess, kResultNotFound, kResultError};

}  // namespace

DiscoveryMetrics::DiscoveryMetrics(metrics::Registry& registry)
    : requests_total(registry.AddCounter("ctrl_discovery_requests_total",
                                         "Number of API discovery requests, partitioned by kind of request and result.",
                                         {"path_kind", "result"})),
      request_duration_seconds(registry.AddHistogram(
          "ctrl_discovery_request_duration_seconds",
          "Discovery request latency in seconds, from sending the request to the parsed document, by kind of "
          "request.",
          {"path_kind"}, {0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60})) {
    for (std::string_view path_kind : kPathKinds) {
        request_duration_seconds.WithLabelValues({std::string(path_kind)});
        for (std::string_view result : kResults)
            requests_total.WithLabelValues({std::string(path_kind), std::string(result)});
    }
}

double DiscoveryMetrics::Requests(std::string_view path_kind, std::string_view result) const {
    return requests_total.WithLabelValues({std::string(path_kind), std::string(result)}).Value();
}

double DiscoveryMetrics::Requests(std::string_view path_kind) const {
    double total = 0;
    for (std::string_view result : kResults)
        total += Requests(path_kind, result);
    return total;
}

}  // namespace ctrl::discovery
