#include "controllers/sgp/policy_status_reconciler.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "controllers/sgp/matching.hpp"
#include "controllers/sgp/policy_status.hpp"
#include "runtime/api/event.hpp"
#include "runtime/api/pod.hpp"
#include "runtime/api/security_group_policy.hpp"
#include "runtime/api/service_account.hpp"
#include "runtime/client/option_values.hpp"
#include "runtime/client/patch.hpp"
#include "runtime/core/log.hpp"

namespace ctrl::sgp {

Task<StatusOr<reconcile::Result>> PolicyStatusReconciler::Reconcile(Context ctx, reconcile::Request request) {
    const log::Logger logger = log::FromContext(ctx);
    const std::string key = request.String();
    api::SecurityGroupPolicy policy;
    const Status read = co_await client_.Get(ctx, request, policy);
    if (IsNotFound(read)) {
        metrics_.invalid_policies.Remove(key);
        Forget(key);
        co_return reconcile::Result{};
    }
    if (!read.Ok())
        co_return read.Annotate("reading SecurityGroupPolicy " + key);

    PolicyStatus status;
    status.observed_generation = policy.Generation();
    status.verdict = JudgePolicy(policy);
    metrics_.invalid_policies.Set(key, {request.namespace_name}, status.verdict.valid ? 0 : 1);
    if (!status.verdict.valid) {
        if (FirstReport(key, status.observed_generation)) {
            logger.Info("Skipping an invalid SecurityGroupPolicy", "reason", status.verdict.reason, "problem",
                        status.verdict.message);
            recorder_.Event(policy, api::kEventTypeWarning, "InvalidPolicy",
                            status.verdict.reason + ": " + status.verdict.message);
        }
    } else {
        Forget(key);
        api::PodList pods;
        const Status pods_listed = co_await client_.List(ctx, pods, client::InNamespace(request.namespace_name));
        if (!pods_listed.Ok())
            co_return pods_listed.Annotate("listing the pods of namespace " + request.namespace_name);
        api::ServiceAccountList accounts;
        const Status accounts_listed =
            co_await client_.List(ctx, accounts, client::InNamespace(request.namespace_name));
        if (!accounts_listed.Ok())
            co_return accounts_listed.Annotate("listing the ServiceAccounts of namespace " + request.namespace_name);
        std::map<std::string, Labels, std::less<>> account_labels;
        for (const Object& account : accounts.Items())
            account_labels.emplace(std::string(account.Name()), account.Labels());
        for (const Object& item : pods.Items()) {
            const api::PodView pod(item);
            const auto account = account_labels.find(ServiceAccountOf(pod));
            const std::optional<Labels> labels =
                account == account_labels.end() ? std::nullopt : std::optional<Labels>(account->second);
            StatusOr<bool> selects = PolicySelects(policy, item.Labels(), labels);
            if (selects.Ok() && *selects)
                ++status.matched_pods;
        }
    }

    const Object original = policy.DeepCopy();
    StatusOr<bool> changed = ApplyPolicyStatus(policy, status, std::chrono::system_clock::now());
    if (!changed.Ok())
        co_return changed.GetStatus().Annotate("computing the status of SecurityGroupPolicy " + key);
    if (!*changed)
        co_return reconcile::Result{};
    client::SubResourceClient status_writer = client_.Status();
    const Status patched = co_await status_writer.Patch(ctx, policy, client::MergeFrom(original));
    if (!patched.Ok())
        co_return patched.Annotate("writing the status of SecurityGroupPolicy " + key);
    logger.V(1).Info("Status written", "ready", status.verdict.valid, "reason", status.verdict.reason, "matchedPods",
                     status.matched_pods);
    co_return reconcile::Result{};
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
