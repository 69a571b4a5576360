#pragma once

#include <functional>
#include <memory>
#include <utility>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/reconcile/request.hpp"
#include "ctrl/reconcile/result.hpp"

namespace ctrl::reconcile {

// Brings the world in line with one object's desired state (controller-runtime's
// reconcile.Reconciler). A controller calls Reconcile for one Request at a time per key (never
// two reconciles of one key at once; different keys run concurrently up to the controller's
// max_concurrent_reconciles), on the controller's executor.
//
// The Context carries the reconcile's logger (log::FromContext(ctx): `controller`, `namespace`,
// `name`, `reconcileID`), is cancelled when the controller stops and, when the controller has a
// reconcile_timeout, when that passes.
//
// Outcomes: an error is retried with the controller's rate limiter (backoff per key) unless it is
// Terminal(...) (logged and counted, not retried); a Result asks for a requeue (see Result); an
// exception escaping Reconcile is caught, logged and counted as a panic, and the key retried
// with backoff.
class Reconciler {
  public:
    virtual ~Reconciler() = default;
    virtual Task<StatusOr<Result>> Reconcile(Context ctx, Request request) = 0;
};

// The reconcile function a Func wraps.
using ReconcileFunction = std::function<Task<StatusOr<Result>>(Context, Request)>;

// A Reconciler made of a function (controller-runtime's reconcile.Func).
class Func final : public Reconciler {
  public:
    explicit Func(ReconcileFunction fn) : fn_(std::move(fn)) {}
    Task<StatusOr<Result>> Reconcile(Context ctx, Request request) override {
        return fn_(std::move(ctx), std::move(request));
    }

  private:
    ReconcileFunction fn_;
};

// A shared Reconciler calling fn.
inline std::shared_ptr<Reconciler> AsReconciler(ReconcileFunction fn) {
    return std::make_shared<Func>(std::move(fn));
}

}  // namespace ctrl::reconcile
