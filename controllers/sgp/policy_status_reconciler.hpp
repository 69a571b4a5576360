#pragma once

#include <map>
#include <mutex>
#include <string>

#include <ctrl/ctrl.hpp>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "controllers/sgp/policy_status.hpp"
#include "controllers/sgp/sgp_metrics.hpp"
#include "controllers/sgp/status_subresource.hpp"

namespace ctrl::sgp {

// Reconciles one SecurityGroupPolicy's state through the Client interface only: judges the policy
// (policy_status.hpp) and sets sgp_policy_valid and sgp_invalid_policies. Then, by whether the kind
// has a status subresource (StatusSubresourceProbe):
//  - with one: counts the pods of its namespace it selects (reading the pods and their
//    ServiceAccounts) and writes status.observedGeneration, status.matchedPods and the Ready
//    condition to the status subresource with a merge patch, only when they change; an invalid
//    policy is logged and gets a Warning Event InvalidPolicy once per generation;
//  - without one (AWS's CRD): writes nothing, and records an Event when the policy's verdict
//    changes: Normal PolicyValid, or Warning PolicyInvalid with the reason and problem (logged).
// A status write answered 404 for the policy just read asks discovery again: when the subresource
// is gone, the policy is reported through Events from then on (no error, no retry loop).
class PolicyStatusReconciler final : public Reconciler {
  public:
    PolicyStatusReconciler(client::Client& client, record::EventRecorder recorder, SgpMetrics& metrics,
                           std::shared_ptr<StatusSubresourceProbe> status_subresource)
        : client_(client),
          recorder_(std::move(recorder)),
          metrics_(metrics),
          status_subresource_(std::move(status_subresource)) {}

    Task<StatusOr<Result>> Reconcile(Context ctx, Request request) override;

  private:
    // The pods of the policy's namespace that it selects (with their ServiceAccounts' labels).
    Task<StatusOr<int64_t>> CountMatchedPods(const Context& ctx, const vpcresources::SecurityGroupPolicy& policy);
    // Writes status to the status subresource when it changed; NotFound as the server answered.
    Task<Status> WriteStatus(const Context& ctx, vpcresources::SecurityGroupPolicy& policy, const PolicyStatus& status);
    // After a 404 from the status subresource: whether it is absent (discovery asked again); an
    // error saying the subresource or the policy is missing when that cannot be told.
    Task<StatusOr<bool>> StatusSubresourceWentAway(const Context& ctx, const Status& not_found, const std::string& key);
    // Records PolicyValid or PolicyInvalid (and logs an invalid policy) when the verdict differs
    // from the last one recorded.
    void ReportThroughEvent(const Context& ctx, const vpcresources::SecurityGroupPolicy& policy,
                            const PolicyVerdict& verdict, const std::string& key);
    // Whether "<key>@<generation>" is reported invalid for the first time (and remembers it).
    bool FirstReport(const std::string& key, int64_t generation);
    void Forget(const std::string& key);
    // The policy is gone: forget everything reported of it.
    void ForgetDeleted(const std::string& key);

    client::Client& client_;
    const record::EventRecorder recorder_;
    SgpMetrics& metrics_;
    const std::shared_ptr<StatusSubresourceProbe> status_subresource_;
    std::mutex mu_;
    std::map<std::string, int64_t> reported_;               // key -> the generation reported invalid
    std::map<std::string, std::string> reported_verdicts_;  // key -> the verdict of the last Event
};

}  // namespace ctrl::sgp
