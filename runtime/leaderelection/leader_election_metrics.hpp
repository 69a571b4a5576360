#pragma once

#include <string>

#include "ctrl/metrics/metric.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::leaderelection {

// The series of one election in client-go's leader election families (label `name`, the lease's
// name), as controller-runtime registers them: leader_election_master_status (1 while this
// process leads, 0 otherwise) and leader_election_slowpath_total (renewals that had to read the
// Lease again because the optimistic update failed). Handles, valid as long as their Registry.
struct LeaderElectionMetrics {
    metrics::Gauge master_status;
    metrics::Counter slowpath;
};

// Registers the families in registry (a no-op when already there) and returns the series of the
// election called name, the gauge set to 0.
LeaderElectionMetrics NewLeaderElectionMetrics(metrics::Registry& registry, const std::string& name);

}  // namespace ctrl::leaderelection
