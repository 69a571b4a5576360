#pragma once

#include <atomic>

#include "controllers/sgp/sgp_metrics.hpp"
#include "runtime/client/client.hpp"
#include "runtime/controller/reconciler.hpp"
#include "runtime/manager/event_recorder.hpp"

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
// installed" (notes/sgp.md, the seed's failure).
class PodReconciler final : public reconcile::Reconciler {
  public:
    PodReconciler(client::Client& client, record::EventRecorder recorder, SgpMetrics& metrics)
        : client_(client), recorder_(std::move(recorder)), metrics_(metrics) {}

    Task<StatusOr<reconcile::Result>> Reconcile(Context ctx, reconcile::Request request) override;

  private:
    client::Client& client_;
    const record::EventRecorder recorder_;
    SgpMetrics& metrics_;
    std::atomic<bool> said_not_served_{false};
};

}  // namespace ctrl::sgp
