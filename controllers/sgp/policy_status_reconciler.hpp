#pragma once

#include <mutex>
#include <set>
#include <string>

#include <ctrl/ctrl.hpp>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "controllers/sgp/sgp_metrics.hpp"

namespace ctrl::sgp {

// Reconciles one SecurityGroupPolicy's status through the Client interface only: judges the policy
// (policy_status.hpp), counts the pods of its namespace it selects (reading the pods and their
// ServiceAccounts), and writes status.observedGeneration, status.matchedPods and the Ready
// condition to the status subresource with a merge patch, only when they change. An invalid policy
// is logged and gets a Warning Event (InvalidPolicy) once per generation, and is counted in
// sgp_invalid_policies.
class PolicyStatusReconciler final : public Reconciler {
  public:
    PolicyStatusReconciler(client::Client& client, record::EventRecorder recorder, SgpMetrics& metrics)
        : client_(client), recorder_(std::move(recorder)), metrics_(metrics) {}

    Task<StatusOr<Result>> Reconcile(Context ctx, Request request) override;

  private:
    // The pods of the policy's namespace that it selects (with their ServiceAccounts' labels).
    Task<StatusOr<int64_t>> CountMatchedPods(const Context& ctx, const vpcresources::SecurityGroupPolicy& policy);
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
