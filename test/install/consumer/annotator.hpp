#pragma once

#include <memory>

#include "ctrl/core/status.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/reconcile/reconciler.hpp"

namespace consumer {

// The annotation the reconciler writes on every ConfigMap it reconciles.
inline constexpr char kSeenAnnotation[] = "consumer.ctrl.io/seen";

// A trivial reconciler: marks each ConfigMap with kSeenAnnotation = "true".
class Annotator final : public ctrl::reconcile::Reconciler {
  public:
    explicit Annotator(ctrl::client::Client& client) : client_(client) {}
    ctrl::Task<ctrl::StatusOr<ctrl::reconcile::Result>> Reconcile(ctrl::Context ctx,
                                                                  ctrl::reconcile::Request request) override;

  private:
    ctrl::client::Client& client_;
};

// Adds the ConfigMap controller running an Annotator to the manager.
ctrl::Status AddAnnotator(ctrl::manager::Manager& mgr);

}  // namespace consumer
