#include "controllers/sgp/policy_status_reconciler.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "controllers/sgp/matching.hpp"
#include "controllers/sgp/policy_status.hpp"

namespace ctrl::sgp {

Task<StatusOr<Result>> PolicyStatusReconciler::Reconcile(Context ctx, Request request) {
    const log::Logger logger = log::FromContext(ctx);
    const std::string key = request.String();
    vpcresources::SecurityGroupPolicy policy;
    const Status read = co_await client_.Get(ctx, request, policy);
    if (IsNotFound(read)) {
        metrics_.invalid_policies.Remove(key);
        Forget(key);
        co_return Result{};
    }
    CTRL_CO_RETURN_IF_ERROR(read, "reading SecurityGroupPolicy " + key);

    PolicyStatus status;
    status.observed_generation = policy.Generation();
    status.verdict = JudgePolicy(policy);
    metrics_.invalid_policies.Set(key, {request.namespace_name}, status.verdict.valid ? 0 : 1);
    if (status.verdict.valid) {
        Forget(key);
        CTRL_CO_ASSIGN_OR_RETURN(status.matched_pods, co_await CountMatchedPods(ctx, policy));
    } else if (FirstReport(key, status.observed_generation)) {
        logger.Info("Skipping an invalid SecurityGroupPolicy", "reason", status.verdict.reason, "problem",
                    status.verdict.message);
        recorder_.Event(policy, api::kEventTypeWarning, "InvalidPolicy",
                        status.verdict.reason + ": " + status.verdict.message);
    }

    const Object original = policy.DeepCopy();
    CTRL_CO_ASSIGN_OR_RETURN(const bool changed, ApplyPolicyStatus(policy, status, std::chrono::system_clock::now()),
                             "computing the status of SecurityGroupPolicy " + key);
    if (!changed)
        co_return Result{};
    client::SubResourceClient status_writer = client_.Status();
    CTRL_CO_RETURN_IF_ERROR(co_await status_writer.Patch(ctx, policy, client::MergeFrom(original)),
                            "writing the status of SecurityGroupPolicy " + key);
    logger.V(1).Info("Status written", "ready", status.verdict.valid, "reason", status.verdict.reason, "matchedPods",
                     status.matched_pods);
    co_return Result{};
}

Task<StatusOr<int64_t>> PolicyStatusReconciler::CountMatchedPods(const Context& ctx,
                                                                 const vpcresources::SecurityGroupPolicy& policy) {
    const std::string ns(policy.Namespace());
    api::PodList pods;
    CTRL_CO_RETURN_IF_ERROR(co_await client_.List(ctx, pods, client::InNamespace(ns)),
                            "listing the pods of namespace " + ns);
    api::ServiceAccountList accounts;
    CTRL_CO_RETURN_IF_ERROR(co_await client_.List(ctx, accounts, client::InNamespace(ns)),
                            "listing the ServiceAccounts of namespace " + ns);
    std::map<std::string, Labels, std::less<>> account_labels;
    for (const Object& account : accounts.Items())
        account_labels.emplace(std::string(account.Name()), account.Labels());
    int64_t matched = 0;
    for (const Object& item : pods.Items()) {
        const api::PodView pod(item);
        const auto account = account_labels.find(ServiceAccountOf(pod));
        const std::optional<Labels> labels =
            account == account_labels.end() ? std::nullopt : std::optional<Labels>(account->second);
        StatusOr<bool> selects = PolicySelects(policy, item.Labels(), labels);
        if (selects.Ok() && *selects)
            ++matched;
    }
    co_return matched;
}

bool PolicyStatusReconciler::FirstReport(const std::string& key, int64_t generation) {
    std::lock_guard lock(mu_);
    auto [it, inserted] = reported_.try_emplace(key, generation);
    if (inserted)
        return true;
    if (it->second == generation)
        return false;
    it->second = generation;
    return true;
}

void PolicyStatusReconciler::Forget(const std::string& key) {
    std::lock_guard lock(mu_);
    reported_.erase(key);
}

}  // namespace ctrl::sgp
