#include "controllers/sgp/sgp_controller.hpp"

#include <string>
#include <vector>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "controllers/sgp/matching.hpp"

namespace ctrl::sgp {
namespace {

// The objects of kind T in namespace ns in the cache, as requests; those for which keep(object)
// holds. Empty while the kind has not synced: its source's initial list enqueues them all then.
template <typename T, typename Keep>
std::vector<Request> ObjectsOf(const cache::Cache& cache, const std::string& ns, Keep keep) {
    std::vector<Request> requests;
    StatusOr<std::vector<std::shared_ptr<const Object>>> objects = cache.ListSharedNow<T>(client::InNamespace(ns));
    if (!objects.Ok())
        return requests;
    for (const std::shared_ptr<const Object>& object : *objects) {
        if (keep(*object))
            requests.emplace_back(std::string(object->Namespace()), std::string(object->Name()));
    }
    return requests;
}

bool Any(const Object&) {
    return true;
}

// The "sgp-kind-served" readiness check.
Status KindServedCheck(const manager::Manager& mgr, const source::Source& policy_source) {
    if (mgr.IsStandby())
        return OkStatus();  // a standby: the controllers do not run, nothing is missing
    const Status ready = policy_source.Ready();
    if (ready.Ok())
        return OkStatus();
    if (IsNoMatch(ready))
        return ready.Annotate(
            "SecurityGroupPolicy (vpcresources.k8s.aws/v1beta1) is not served: is its CRD installed? Pods get no "
            "security groups until it is");
    return ready.Annotate("whether SecurityGroupPolicy is served is not known yet");
}

// The readiness checks "sgp-kind-served" and "sgp-status-subresource", and the hook that sets
// sgp_kind_served and sgp_status_subresource at each scrape.
Status AddChecksAndMetrics(manager::Manager& mgr, const Watcher& watcher) {
    const manager::Manager& const_mgr = mgr;
    const std::shared_ptr<source::Source> policy_source = watcher.policy_source;
    CTRL_RETURN_IF_ERROR(mgr.AddReadyzCheck(
        kKindServedCheck, [&const_mgr, policy_source] { return KindServedCheck(const_mgr, *policy_source); }));
    const std::shared_ptr<StatusSubresourceProbe> probe = watcher.status_subresource;
    CTRL_RETURN_IF_ERROR(mgr.AddReadyzCheck(
        kStatusSubresourceCheck, [] { return OkStatus(); }, [probe] { return probe->Detail(); }));
    const std::shared_ptr<SgpMetrics> metrics = watcher.metrics;
    mgr.GetMetricsRegistry().AddCollectHook([metrics, policy_source, probe] {
        const Status ready = policy_source->Ready();
        if (ready.Ok())
            metrics->kind_served.WithLabelValues({}).Set(1);
        else if (IsNoMatch(ready))
            metrics->kind_served.WithLabelValues({}).Set(0);
        if (probe->Last() != StatusSubresource::kUnknown)
            metrics->status_subresource.WithLabelValues({}).Set(probe->Last() == StatusSubresource::kPresent ? 1 : 0);
    });
    return OkStatus();
}

}  // namespace

StatusOr<Watcher> AddToManager(manager::Manager& mgr, std::optional<shardedcontroller::Options> pod_sharding) {
    Watcher watcher;
    watcher.metrics = std::make_shared<SgpMetrics>(mgr.GetMetricsRegistry());
    watcher.pods =
        std::make_shared<PodReconciler>(mgr.GetClient(), mgr.GetEventRecorderFor("sgp-watcher"), *watcher.metrics);
    watcher.status_subresource = std::make_shared<StatusSubresourceProbe>(
        std::make_shared<discovery::DiscoveryClient>(mgr.GetCluster().GetRestClient(), discovery::DiscoveryOptions{},
                                                     mgr.GetMetricsRegistry()),
        mgr.GetLogger().WithName("sgp"));
    watcher.policies = std::make_shared<PolicyStatusReconciler>(mgr.GetClient(), mgr.GetEventRecorderFor("sgp-watcher"),
                                                                *watcher.metrics, watcher.status_subresource);
    cache::Cache& cache = mgr.GetCache();

    auto policy_to_pods = handler::EnqueueRequestsFromMapFunc([&cache](const Context&, const Object& policy) {
        return ObjectsOf<api::Pod>(cache, std::string(policy.Namespace()), Any);
    });
    auto account_to_pods = handler::EnqueueRequestsFromMapFunc([&cache](const Context&, const Object& account) {
        const std::string name(account.Name());
        return ObjectsOf<api::Pod>(cache, std::string(account.Namespace()),
                                   [&name](const Object& pod) { return ServiceAccountOf(api::PodView(pod)) == name; });
    });
    watcher.policy_source = source::Kind<vpcresources::SecurityGroupPolicy>(cache, policy_to_pods);
    builder::Builder pods = builder::ControllerFor<api::Pod>(mgr);
    pods.Named("sgp-pods").WatchesRawSource(watcher.policy_source).Watches<api::ServiceAccount>(account_to_pods);
    if (pod_sharding) {
        pod_sharding->narrow_cache = false;  // sgp-status reads every pod from the same cache
        const std::shared_ptr<PodReconciler> reconciler = watcher.pods;
        pod_sharding->on_released = [reconciler](const std::vector<ObjectKey>& keys) { reconciler->Forget(keys); };
        pods.ShardedBy(std::move(*pod_sharding));
    }
    CTRL_RETURN_IF_ERROR(pods.Complete(watcher.pods));

    auto to_policies = handler::EnqueueRequestsFromMapFunc([&cache](const Context&, const Object& object) {
        return ObjectsOf<vpcresources::SecurityGroupPolicy>(cache, std::string(object.Namespace()), Any);
    });
    auto to_every_policy = handler::EnqueueRequestsFromMapFunc([&cache](const Context&, const Object&) {
        return ObjectsOf<vpcresources::SecurityGroupPolicy>(cache, "", Any);
    });
    auto subresource_changed = std::make_shared<source::EventChannel>();
    CTRL_RETURN_IF_ERROR(builder::ControllerFor<vpcresources::SecurityGroupPolicy>(mgr)
                             .Named("sgp-status")
                             .Watches<api::Pod>(to_policies)
                             .Watches<api::ServiceAccount>(to_policies)
                             .WatchesRawSource(source::Channel(subresource_changed, to_every_policy))
                             .Complete(watcher.policies));
    CTRL_RETURN_IF_ERROR(
        mgr.Add(std::make_shared<StatusSubresourceWatch>(watcher.status_subresource, std::move(subresource_changed))));

    CTRL_RETURN_IF_ERROR(AddChecksAndMetrics(mgr, watcher));
    return watcher;
}

}  // namespace ctrl::sgp
