#pragma once

#include <memory>

#include "controllers/sgp/pod_reconciler.hpp"
#include "runtime/core/status_or.hpp"
#include "runtime/manager/manager.hpp"

namespace ctrl::sgp {

// Adds the SecurityGroupPolicy watcher to mgr: a controller named "sgp-pods" For pods, that also
// watches SecurityGroupPolicies (each enqueues every pod of its namespace) and ServiceAccounts
// (each enqueues the pods of its namespace that run as it), reconciling with PodReconciler. The
// policy kind may be missing at start: its source waits for it and the controller's readiness
// check says so. The scheme of mgr must know SecurityGroupPolicy (vpcresourcesv1beta1::AddToScheme).
StatusOr<std::shared_ptr<PodReconciler>> AddToManager(manager::Manager& mgr);

}  // namespace ctrl::sgp
