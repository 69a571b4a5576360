#pragma once

#include "ctrl/metrics/registry.hpp"

namespace ctrl::metrics {

// Registers the process metrics Go's process collector exports (client_golang's
// NewProcessCollector), read from /proc/self and getrlimit at every scrape through a collect
// hook: process_cpu_seconds_total, process_resident_memory_bytes, process_virtual_memory_bytes,
// process_virtual_memory_max_bytes, process_open_fds, process_max_fds and
// process_start_time_seconds. Call once per registry. A value that cannot be read keeps its last
// one.
void RegisterProcessMetrics(Registry& registry);

}  // namespace ctrl::metrics
