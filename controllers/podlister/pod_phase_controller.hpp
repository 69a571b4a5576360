#pragma once

#include <memory>

#include "ctrl/client/client.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/metrics/object_counts.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/reconcile/reconciler.hpp"

namespace ctrl::podlister {

// The gauge the pod-phase controller keeps.
inline constexpr const char* kPodsMetric = "podlister_pods";

// Keeps podlister_pods{namespace,phase} (the pods of each namespace in each phase) from the pods it
// reads through the Client (the manager's cache): each reconcile counts the pod under its current
// phase ("Unknown" when it has none), or drops it when it is gone.
class PodPhaseReconciler final : public reconcile::Reconciler {
  public:
    PodPhaseReconciler(client::Reader& reader, metrics::Registry& registry);

    Task<StatusOr<reconcile::Result>> Reconcile(Context ctx, reconcile::Request request) override;

  private:
    client::Reader& reader_;
    metrics::ObjectCounts pods_;
};

// Adds the controller "pod-phases" (For pods, PodPhaseReconciler) to mgr.
Status AddPodPhaseController(manager::Manager& mgr);

}  // namespace ctrl::podlister
