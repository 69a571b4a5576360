#pragma once

#include "ctrl/metrics/metric.hpp"
#include "ctrl/metrics/object_counts.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::sgp {

// The SecurityGroupPolicy watcher's own metrics, beside controller-runtime's families:
//   sgp_pods{namespace,has_security_groups="true"|"false"}  gauge: pods with and without groups
//   sgp_invalid_policies{namespace}                         gauge: policies skipped as invalid
//                                                           (0 in a namespace whose policies are valid)
//   sgp_security_group_changes_total{namespace}             counter: pod annotations changed
//   sgp_kind_served                                         gauge: 1 when SecurityGroupPolicy is
//                                                           served, 0 when not (absent until known)
//   sgp_policy_valid{namespace,name}                        gauge: 1 for a valid policy, 0 for an
//                                                           invalid one (gone with the policy)
//   sgp_status_subresource                                  gauge: 1 when SecurityGroupPolicy has a
//                                                           status subresource, 0 when not (absent
//                                                           until known)
// Registered once per registry (registering again returns the same families).
struct SgpMetrics {
    explicit SgpMetrics(metrics::Registry& registry);

    metrics::ObjectCounts pods;
    metrics::ObjectCounts invalid_policies;
    metrics::CounterFamily changes;
    metrics::GaugeFamily kind_served;
    metrics::GaugeFamily policy_valid;
    metrics::GaugeFamily status_subresource;
};

}  // namespace ctrl::sgp
