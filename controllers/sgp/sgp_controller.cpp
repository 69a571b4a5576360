#include "controllers/sgp/sgp_controller.hpp"

#include <string>
#include <vector>

#include "controllers/sgp/matching.hpp"
#include "runtime/api/pod.hpp"
#include "runtime/api/security_group_policy.hpp"
#include "runtime/api/service_account.hpp"
#include "runtime/client/option_values.hpp"
#include "runtime/controller/builder.hpp"
#include "runtime/controller/enqueue_requests_from_map_func.hpp"

namespace ctrl::sgp {
namespace {

// The pods of namespace ns in the cache, as requests; those for which keep(pod) holds.
template <typename Keep>
std::vector<reconcile::Request> PodsOf(const cache::Cache& cache, const std::string& ns, Keep keep) {
    std::vector<reconcile::Request> requests;
    StatusOr<std::vector<std::shared_ptr<const Object>>> pods = cache.ListSharedNow<api::Pod>(client::InNamespace(ns));
    if (!pods.Ok())
        return requests;  // not synced yet: the pod source's initial list enqueues them all
    for (const std::shared_ptr<const Object>& pod : *pods) {
        if (keep(api::PodView(*pod)))
            requests.emplace_back(std::string(pod->Namespace()), std::string(pod->Name()));
    }
    return requests;
}

}  // namespace

StatusOr<std::shared_ptr<PodReconciler>> AddToManager(manager::Manager& mgr) {
    auto reconciler = std::make_shared<PodReconciler>(mgr.GetClient(), mgr.GetEventRecorderFor("sgp-watcher"));
    const cache::Cache& cache = mgr.GetCache();
    auto policy_to_pods = handler::EnqueueRequestsFromMapFunc([&cache](const Context&, const Object& policy) {
        return PodsOf(cache, std::string(policy.Namespace()), [](const api::PodView&) { return true; });
    });
    auto account_to_pods = handler::EnqueueRequestsFromMapFunc([&cache](const Context&, const Object& account) {
        const std::string name(account.Name());
        return PodsOf(cache, std::string(account.Namespace()),
                      [&name](const api::PodView& pod) { return ServiceAccountOf(pod) == name; });
    });
    CTRL_RETURN_IF_ERROR(builder::ControllerFor<api::Pod>(mgr)
                             .Named("sgp-pods")
                             .Watches<api::SecurityGroupPolicy>(policy_to_pods)
                             .Watches<api::ServiceAccount>(account_to_pods)
                             .Complete(reconciler));
    return reconciler;
}

}  // namespace ctrl::sgp
