#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include <ctrl/ctrl.hpp>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "controllers/sgp/sgp_metrics.hpp"

namespace ctrl::sgp {

// Reconciles one pod through the Client interface only: reads the pod, the SecurityGroupPolicies
// of its namespace and its ServiceAccount, computes its security groups (matching.hpp) and writes
// them as the kSecurityGroupsAnnotation annotation (removed when none match), with a merge patch
// only when the value changes, and an Event on the pod when it does. Counts the pod in sgp_pods
// and each change in sgp_security_group_changes_total.
//
// The SecurityGroupPolicy kind not being served (its CRD not installed) is NoMatch: then no
// policy applies, which is logged once (again after it was served). Every other failure
// (discovery, network, the server) is an error, retried with backoff: never taken for "not
// installed" (docs/sgp.md, the seed's failure).
class PodReconciler final : public Reconciler {
  public:
    PodReconciler(client::Client& client, record::EventRecorder recorder, SgpMetrics& metrics)
        : client_(client), recorder_(std::move(recorder)), metrics_(metrics) {}

    Task<StatusOr<Result>> Reconcile(Context ctx, Request request) override;
    // Drops what it reports of these pods (sgp_pods): another replica of a sharded operator
    // reconciles them now.
    void Forget(const std::vector<ObjectKey>& pods);

  private:
    // Lists the namespace's policies into policies: true when listed, false when the kind is not
    // served (logged once).
    Task<StatusOr<bool>> ListPolicies(const Context& ctx, const std::string& ns,
                                      vpcresources::SecurityGroupPolicyList& policies);
    // The labels of the pod's ServiceAccount; nullopt when it does not exist.
    Task<StatusOr<std::optional<Labels>>> ServiceAccountLabels(const Context& ctx, const api::Pod& pod);
    // The annotation value the pod should carry (policies null: none served).
    static std::string WantedGroups(const Context& ctx, const api::Pod& pod,
                                    const std::optional<Labels>& account_labels,
                                    const vpcresources::SecurityGroupPolicyList* policies);
    // Writes want as the annotation (removes it when empty), with an Event and the metrics.
    Task<StatusOr<Result>> Annotate(const Context& ctx, api::Pod& pod, const std::string& want);

    client::Client& client_;
    const record::EventRecorder recorder_;
    SgpMetrics& metrics_;
    std::atomic<bool> said_not_served_{false};
};

}  // namespace ctrl::sgp
