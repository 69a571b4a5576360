#pragma once

#include <mutex>
#include <set>
#include <string>

#include "controllers/sgp/sgp_metrics.hpp"
#include "runtime/client/client.hpp"
#include "runtime/controller/reconciler.hpp"
#include "runtime/manager/event_recorder.hpp"

namespace ctrl::sgp {

// Reconciles one SecurityGroupPolicy's status through the Client interface only: judges the policy
// (policy_status.hpp), counts the pods of its namespace it selects (reading the pods and their
// ServiceAccounts), and writes status.observedGeneration, status.matchedPods and the Ready
// condition to the status subresource with a merge patch, only when they change. An invalid policy
// is logged and gets a Warning Event (InvalidPolicy) once per generation, and is counted in
// sgp_invalid_policies.
class PolicyStatusReconciler final : public reconcile::Reconciler {
  public:
    PolicyStatusReconciler(client::Client& client, record::EventRecorder recorder, SgpMetrics& metrics)
        : client_(client), recorder_(std::move(recorder)), metrics_(metrics) {}

    Task<StatusOr<reconcile::Result>> Reconcile(Context ctx, reconcile::Request request) override;

  private:
    // Whether "<key>@<generation>" is reported for the first time (and remembers it).
    bool FirstReport(const std::string& key, int64_t generation);
    void Forget(const std::string& key);

    client::Client& client_;
    const record::EventRecorder recorder_;
    SgpMetrics& metrics_;
    std::mutex mu_;
    std::map<std::string, int64_t> reported_;  // key -> the generation reported invalid
};

}  // namespace ctrl::sgp
