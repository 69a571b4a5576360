#include "controllers/sgp/pod_reconciler.hpp"

#include <optional>
#include <string>
#include <vector>

#include "controllers/sgp/matching.hpp"

namespace ctrl::sgp {

void PodReconciler::Forget(const std::vector<ObjectKey>& pods) {
    for (const ObjectKey& pod : pods)
        metrics_.pods.Remove(pod.String());
}

Task<StatusOr<Result>> PodReconciler::Reconcile(Context ctx, Request request) {
    const std::string key = request.String();
    api::Pod pod;
    const Status read = co_await client_.Get(ctx, request, pod);
    if (IsNotFound(read)) {
        metrics_.pods.Remove(key);
        co_return Result{};
    }
    CTRL_CO_RETURN_IF_ERROR(read, "reading pod " + key);

    vpcresources::SecurityGroupPolicyList policies;
    CTRL_CO_ASSIGN_OR_RETURN(const bool served, co_await ListPolicies(ctx, request.namespace_name, policies));
    CTRL_CO_ASSIGN_OR_RETURN(const std::optional<Labels> account_labels, co_await ServiceAccountLabels(ctx, pod));
    const std::string want = WantedGroups(ctx, pod, account_labels, served ? &policies : nullptr);
    const std::optional<std::string_view> have = pod.Annotation(kSecurityGroupsAnnotation);
    if ((want.empty() && !have) || (have && *have == want)) {
        metrics_.pods.Set(key, {request.namespace_name, want.empty() ? "false" : "true"});
        co_return Result{};
    }
    co_return co_await Annotate(ctx, pod, want);
}

Task<StatusOr<bool>> PodReconciler::ListPolicies(const Context& ctx, const std::string& ns,
                                                 vpcresources::SecurityGroupPolicyList& policies) {
    const Status listed = co_await client_.List(ctx, policies, client::InNamespace(ns));
    if (IsNoMatch(listed)) {
        if (!said_not_served_.exchange(true))
            log::FromContext(ctx).Info(
                "SecurityGroupPolicy is not served (is its CRD installed?): pods get no security groups "
                "until it is",
                "err", listed.ToString());
        co_return false;
    }
    CTRL_CO_RETURN_IF_ERROR(listed, "listing the SecurityGroupPolicies of namespace " + ns);
    said_not_served_.store(false);
    co_return true;
}

Task<StatusOr<std::optional<Labels>>> PodReconciler::ServiceAccountLabels(const Context& ctx, const api::Pod& pod) {
    api::ServiceAccount service_account;
    const ObjectKey account_key(std::string(pod.Namespace()), ServiceAccountOf(pod));
    const Status read = co_await client_.Get(ctx, account_key, service_account);
    if (IsNotFound(read))
        co_return std::optional<Labels>();
    CTRL_CO_RETURN_IF_ERROR(read, "reading ServiceAccount " + account_key.String());
    co_return std::optional<Labels>(service_account.Labels());
}

std::string PodReconciler::WantedGroups(const Context& ctx, const api::Pod& pod,
                                        const std::optional<Labels>& account_labels,
                                        const vpcresources::SecurityGroupPolicyList* policies) {
    std::vector<vpcresources::SecurityGroupPolicyView> views;
    if (policies != nullptr) {
        for (const Object& item : policies->Items())
            views.emplace_back(item);
    }
    const Matching matching = SecurityGroupsFor(pod, account_labels, views);
    for (const InvalidPolicy& invalid : matching.invalid)
        log::FromContext(ctx).V(1).Info("Skipping an invalid SecurityGroupPolicy", "policy", invalid.name, "reason",
                                        invalid.reason.ToString());
    return AnnotationValue(matching.groups);
}

Task<StatusOr<Result>> PodReconciler::Annotate(const Context& ctx, api::Pod& pod, const std::string& want) {
    const log::Logger logger = log::FromContext(ctx);
    const std::string key = pod.Key().String();
    const std::string ns(pod.Namespace());
    const Object original = pod.DeepCopy();
    std::map<std::string, std::string> annotations = pod.Annotations();
    if (want.empty())
        annotations.erase(std::string(kSecurityGroupsAnnotation));
    else
        annotations[std::string(kSecurityGroupsAnnotation)] = want;
    pod.SetAnnotations(annotations);
    // The patch carries the resourceVersion read: a pod read from a cache that has not yet seen an
    // earlier reconcile's patch gets Conflict, not a second patch (and a second change counted).
    // The watch event of that patch brings the pod back; the requeue covers a lost event.
    const client::MergeFromOptions locked{.optimistic_lock = true};
    const Status patched = co_await client_.Patch(ctx, pod, client::MergeFrom(original, locked));
    if (IsConflict(patched)) {
        logger.V(1).Info("Pod changed since it was read; reconciling it again", "err", patched.ToString());
        co_return Result{.requeue = true};
    }
    if (IsNotFound(patched)) {
        // Deleted since it was read (the cache had not seen the delete yet): a pod that is gone
        // needs no groups, and there is nothing to retry.
        logger.V(1).Info("Pod deleted since it was read; nothing to annotate");
        metrics_.pods.Remove(key);
        co_return Result{};
    }
    CTRL_CO_RETURN_IF_ERROR(patched, "annotating pod " + key);
    metrics_.pods.Set(key, {ns, want.empty() ? "false" : "true"});
    metrics_.changes.WithLabelValues({ns}).Inc();
    logger.Info("Security groups changed", "groups", want);
    recorder_.Event(pod, api::kEventTypeNormal, "SecurityGroupsChanged",
                    want.empty() ? "no security group applies any more" : "security groups: " + want);
    co_return Result{};
}

}  // namespace ctrl::sgp
