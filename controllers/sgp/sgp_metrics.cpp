#include "controllers/sgp/sgp_metrics.hpp"

namespace ctrl::sgp {

SgpMetrics::SgpMetrics(metrics::Registry& registry)
    : pods(registry.AddGauge("sgp_pods",
                             "Pods by namespace and whether SecurityGroupPolicies give them security groups.",
                             {"namespace", "has_security_groups"})),
      invalid_policies(registry.AddGauge("sgp_invalid_policies",
                                         "SecurityGroupPolicies skipped as invalid (their Ready condition is False).",
                                         {"namespace"})),
      changes(registry.AddCounter("sgp_security_group_changes_total",
                                  "Times a pod's security groups annotation was changed.", {"namespace"})),
      kind_served(registry.AddGauge(
          "sgp_kind_served", "1 when the API server serves SecurityGroupPolicy (its CRD is installed), 0 when not.",
          {})),
      policy_valid(registry.AddGauge("sgp_policy_valid",
                                     "1 for a valid SecurityGroupPolicy, 0 for one skipped as invalid.",
                                     {"namespace", "name"})),
      status_subresource(registry.AddGauge("sgp_status_subresource",
                                           "1 when SecurityGroupPolicy has a status subresource (policy state is "
                                           "written to status), 0 when not (reported through Events and metrics).",
                                           {})) {}

}  // namespace ctrl::sgp
