#include "controllers/sgp/policy_status_reconciler.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "controllers/sgp/matching.hpp"

namespace ctrl::sgp {

namespace {

constexpr const char* kReasonPolicyValid = "PolicyValid";
constexpr const char* kReasonPolicyInvalid = "PolicyInvalid";

std::string VerdictKey(const PolicyVerdict& verdict) {
    return verdict.valid ? std::string(kReasonValid) : verdict.reason + ": " + verdict.message;
}

}  // namespace

Task<StatusOr<Result>> PolicyStatusReconciler::Reconcile(Context ctx, Request request) {
    const log::Logger logger = log::FromContext(ctx);
    const std::string key = request.String();
    vpcresources::SecurityGroupPolicy policy;
    const Status read = co_await client_.Get(ctx, request, policy);
    if (IsNotFound(read)) {
        metrics_.invalid_policies.Remove(key);
        metrics_.policy_valid.Remove({request.namespace_name, request.name});
        ForgetDeleted(key);
        co_return Result{};
    }
    CTRL_CO_RETURN_IF_ERROR(read, "reading SecurityGroupPolicy " + key);

    PolicyStatus status;
    status.observed_generation = policy.Generation();
    status.verdict = JudgePolicy(policy);
    metrics_.invalid_policies.Set(key, {request.namespace_name}, status.verdict.valid ? 0 : 1);
    metrics_.policy_valid.WithLabelValues({request.namespace_name, request.name}).Set(status.verdict.valid ? 1 : 0);
    CTRL_CO_ASSIGN_OR_RETURN(const StatusSubresource subresource, co_await status_subresource_->Get(ctx));
    if (subresource != StatusSubresource::kAbsent) {
        if (status.verdict.valid) {
            Forget(key);
            CTRL_CO_ASSIGN_OR_RETURN(status.matched_pods, co_await CountMatchedPods(ctx, policy));
        } else if (FirstReport(key, status.observed_generation)) {
            logger.Info("Skipping an invalid SecurityGroupPolicy", "reason", status.verdict.reason, "problem",
                        status.verdict.message);
            recorder_.Event(policy, api::kEventTypeWarning, "InvalidPolicy",
                            status.verdict.reason + ": " + status.verdict.message);
        }
        const Status written = co_await WriteStatus(ctx, policy, status);
        if (!IsNotFound(written)) {
            CTRL_CO_RETURN_IF_ERROR(written, "writing the status of SecurityGroupPolicy " + key);
            co_return Result{};
        }
        CTRL_CO_ASSIGN_OR_RETURN(const bool went_away, co_await StatusSubresourceWentAway(ctx, written, key));
        if (!went_away)
            co_return Result{};
    }
    ReportThroughEvent(ctx, policy, status.verdict, key);
    co_return Result{};
}

Task<Status> PolicyStatusReconciler::WriteStatus(const Context& ctx, vpcresources::SecurityGroupPolicy& policy,
                                                 const PolicyStatus& status) {
    const Object original = policy.DeepCopy();
    CTRL_CO_ASSIGN_OR_RETURN(const bool changed, ApplyPolicyStatus(policy, status, std::chrono::system_clock::now()),
                             "computing the status");
    if (!changed)
        co_return OkStatus();
    client::SubResourceClient status_writer = client_.Status();
    CTRL_CO_RETURN_IF_ERROR(co_await status_writer.Patch(ctx, policy, client::MergeFrom(original)));
    log::FromContext(ctx).V(1).Info("Status written", "ready", status.verdict.valid, "reason", status.verdict.reason,
                                    "matchedPods", status.matched_pods);
    co_return OkStatus();
}

Task<StatusOr<bool>> PolicyStatusReconciler::StatusSubresourceWentAway(const Context& ctx, const Status& not_found,
                                                                       const std::string& key) {
    // The policy was just read: a 404 from its status subresource most likely means the kind has none
    // (its CRD was replaced by one without it). Discovery tells.
    const StatusOr<StatusSubresource> now = co_await status_subresource_->Refresh(ctx);
    if (now.Ok() && *now == StatusSubresource::kAbsent) {
        log::FromContext(ctx).Info(
            "The status write answered 404: SecurityGroupPolicy has no status subresource (any more); reporting "
            "through Events",
            "policy", key);
        co_return true;
    }
    if (now.Ok())  // the subresource is served: the policy itself went away, its deletion is on the way
        co_return false;
    co_return NotFoundError("writing the status of SecurityGroupPolicy " + key +
                            ": the server answered 404, so its status subresource or the policy is missing (" +
                            not_found.Message() + "); asking discovery which failed: " + now.GetStatus().Message());
}

void PolicyStatusReconciler::ReportThroughEvent(const Context& ctx, const vpcresources::SecurityGroupPolicy& policy,
                                                const PolicyVerdict& verdict, const std::string& key) {
    const std::string verdict_key = VerdictKey(verdict);
    {
        std::lock_guard lock(mu_);
        auto [it, inserted] = reported_verdicts_.try_emplace(key, verdict_key);
        if (!inserted && it->second == verdict_key)
            return;
        it->second = verdict_key;
    }
    if (verdict.valid) {
        recorder_.Event(policy, api::kEventTypeNormal, kReasonPolicyValid,
                        "the policy is valid (no status subresource: its state is reported through Events)");
        return;
    }
    log::FromContext(ctx).Info("Skipping an invalid SecurityGroupPolicy", "reason", verdict.reason, "problem",
                               verdict.message);
    recorder_.Event(policy, api::kEventTypeWarning, kReasonPolicyInvalid, verdict.reason + ": " + verdict.message);
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

void PolicyStatusReconciler::ForgetDeleted(const std::string& key) {
    std::lock_guard lock(mu_);
    reported_.erase(key);
    reported_verdicts_.erase(key);
}

}  // namespace ctrl::sgp
