#pragma once

// Reading samples out of the Prometheus text format an operator serves on /metrics.

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ctrl::testing {

// The value of the first sample of metric `name` whose labels include `labels` (any order, others
// allowed); nullopt when there is none.
std::optional<double> MetricValue(std::string_view text, std::string_view name,
                                  const std::map<std::string, std::string>& labels = {});

// The sum of every sample of `name` whose labels include `labels` (0 when none).
double MetricSum(std::string_view text, std::string_view name, const std::map<std::string, std::string>& labels = {});

// The sample lines of text whose metric name starts with prefix, for failure messages.
std::string MetricLines(std::string_view text, std::string_view prefix);

}  // namespace ctrl::testing
