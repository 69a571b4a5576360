#include "controllers/podlister/pod_phase_controller.hpp"

#include <string>

#include "ctrl/api/pod.hpp"
#include "ctrl/builder/builder.hpp"

namespace ctrl::podlister {

PodPhaseReconciler::PodPhaseReconciler(client::Reader& reader, metrics::Registry& registry)
    : reader_(reader),
      pods_(registry.AddGauge(kPodsMetric, "Pods by namespace and phase, from the operator's cache.",
                              {"namespace", "phase"})) {}

Task<StatusOr<reconcile::Result>> PodPhaseReconciler::Reconcile(Context ctx, reconcile::Request request) {
    const std::string key = request.String();
    api::Pod pod;
    const Status read = co_await reader_.Get(ctx, request, pod);
    if (IsNotFound(read)) {
        pods_.Remove(key);
        co_return reconcile::Result{};
    }
    if (!read.Ok())
        co_return read.Annotate("reading pod " + key);
    const std::string_view phase = pod.Phase();
    pods_.Set(key, {request.namespace_name, phase.empty() ? std::string("Unknown") : std::string(phase)});
    co_return reconcile::Result{};
}

Status AddPodPhaseController(manager::Manager& mgr) {
    auto reconciler = std::make_shared<PodPhaseReconciler>(mgr.GetClient(), mgr.GetMetricsRegistry());
    return builder::ControllerFor<api::Pod>(mgr).Named("pod-phases").Complete(reconciler);
}

}  // namespace ctrl::podlister
