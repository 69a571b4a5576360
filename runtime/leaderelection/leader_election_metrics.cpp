#include "ctrl/leaderelection/leader_election_metrics.hpp"

namespace ctrl::leaderelection {

LeaderElectionMetrics NewLeaderElectionMetrics(metrics::Registry& registry, const std::string& name) {
    const metrics::GaugeFamily status = registry.AddGauge(
        "leader_election_master_status",
        "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. "
        "'name' is the string used to identify the lease. Please make sure to group by name.",
        {"name"});
    const metrics::CounterFamily slowpath =
        registry.AddCounter("leader_election_slowpath_total",
                            "Total number of slow path exercised in renewing leader leases. 'name' is the string "
                            "used to identify the lease. Please make sure to group by name.",
                            {"name"});
    LeaderElectionMetrics result{status.WithLabelValues({name}), slowpath.WithLabelValues({name})};
    result.master_status.Set(0);
    return result;
}

}  // namespace ctrl::leaderelection
