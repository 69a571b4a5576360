#include "controllers/sgp/pod_reconciler.hpp"

#include <optional>
#include <string>
#include <vector>

#include "controllers/sgp/matching.hpp"
#include "runtime/api/event.hpp"
#include "runtime/api/pod.hpp"
#include "runtime/api/security_group_policy.hpp"
#include "runtime/api/service_account.hpp"
#include "runtime/client/option_values.hpp"
#include "runtime/client/patch.hpp"
#include "runtime/core/log.hpp"

namespace ctrl::sgp {

Task<StatusOr<reconcile::Result>> PodReconciler::Reconcile(Context ctx, reconcile::Request request) {
    const log::Logger logger = log::FromContext(ctx);
    const std::string key = request.String();
    api::Pod pod;
    const Status read = co_await client_.Get(ctx, request, pod);
    if (IsNotFound(read)) {
        metrics_.pods.Remove(key);
        co_return reconcile::Result{};
    }
    if (!read.Ok())
        co_return read.Annotate("reading pod " + request.String());

    api::SecurityGroupPolicyList policies;
    const Status listed = co_await client_.List(ctx, policies, client::InNamespace(request.namespace_name));
    if (IsNoMatch(listed)) {
        if (!said_not_served_.exchange(true))
            logger.Info(
                "SecurityGroupPolicy is not served (is its CRD installed?): pods get no security groups "
                "until it is",
                "err", listed.ToString());
    } else if (!listed.Ok()) {
        co_return listed.Annotate("listing the SecurityGroupPolicies of namespace " + request.namespace_name);
    } else {
        said_not_served_.store(false);
    }

    std::optional<Labels> service_account_labels;
    api::ServiceAccount service_account;
    const std::string account = ServiceAccountOf(pod);
    const ObjectKey account_key(request.namespace_name, account);
    const Status account_read = co_await client_.Get(ctx, account_key, service_account);
    if (account_read.Ok())
        service_account_labels = service_account.Labels();
    else if (!IsNotFound(account_read))
        co_return account_read.Annotate("reading ServiceAccount " + account_key.String());

    std::vector<api::SecurityGroupPolicyView> views;
    if (listed.Ok()) {
        for (const Object& item : policies.Items())
            views.emplace_back(item);
    }
    const Matching matching = SecurityGroupsFor(pod, service_account_labels, views);
    for (const InvalidPolicy& invalid : matching.invalid)
        logger.V(1).Info("Skipping an invalid SecurityGroupPolicy", "policy", invalid.name, "reason",
                         invalid.reason.ToString());

    const std::string want = AnnotationValue(matching.groups);
    const std::optional<std::string_view> have = pod.Annotation(kSecurityGroupsAnnotation);
    if ((want.empty() && !have) || (have && *have == want)) {
        metrics_.pods.Set(key, {request.namespace_name, want.empty() ? "false" : "true"});
        co_return reconcile::Result{};
    }

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
        co_return reconcile::Result{.requeue = true};
    }
    if (IsNotFound(patched)) {
        // Deleted since it was read (the cache had not seen the delete yet): a pod that is gone
        // needs no groups, and there is nothing to retry.
        logger.V(1).Info("Pod deleted since it was read; nothing to annotate");
        metrics_.pods.Remove(key);
        co_return reconcile::Result{};
    }
    if (!patched.Ok())
        co_return patched.Annotate("annotating pod " + key);
    metrics_.pods.Set(key, {request.namespace_name, want.empty() ? "false" : "true"});
    metrics_.changes.WithLabelValues({request.namespace_name}).Inc();
    logger.Info("Security groups changed", "groups", want);
    recorder_.Event(pod, api::kEventTypeNormal, "SecurityGroupsChanged",
                    want.empty() ? "no security group applies any more" : "security groups: " + want);
    co_return reconcile::Result{};
}

}  // namespace ctrl::sgp
