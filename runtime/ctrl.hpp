#pragma once

// The front door for operator authors: one include, the names a controller-runtime author writes
// from its `ctrl` package (ctrl.NewManager, ctrl.Request, ctrl.Result, ctrl.NewControllerManagedBy,
// ctrl.NewWebhookManagedBy, ctrl.SetupSignalHandler, ctrl.GetConfig, ctrl.Log), and the packages
// under them: the webhook handler types, the client and
// its options, the cache, handlers, predicates, sources, controllerutil, events, the typed built-in
// kinds, logging and Status. Each folder of runtime/ stays includable on its own
// (<ctrl/client/client.hpp>); this header only gathers them.

#include <memory>
#include <utility>

#include "ctrl/api/builtins.hpp"
#include "ctrl/api/condition.hpp"
#include "ctrl/api/config_map.hpp"
#include "ctrl/api/event.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/api/secret.hpp"
#include "ctrl/api/service_account.hpp"
#include "ctrl/api/timestamp.hpp"
#include "ctrl/builder/builder.hpp"
#include "ctrl/builder/webhook_builder.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/client/patch.hpp"
#include "ctrl/client/retry.hpp"
#include "ctrl/controllerutil/create_or.hpp"
#include "ctrl/controllerutil/finalizer.hpp"
#include "ctrl/controllerutil/owner.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/handler/enqueue_request_for_object.hpp"
#include "ctrl/handler/enqueue_request_for_owner.hpp"
#include "ctrl/handler/enqueue_requests_from_map_func.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/manager/flags.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/manager/signals.hpp"
#include "ctrl/predicate/predicates.hpp"
#include "ctrl/reconcile/reconciler.hpp"
#include "ctrl/reconcile/request.hpp"
#include "ctrl/reconcile/result.hpp"
#include "ctrl/record/event_recorder.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/rest/load_config.hpp"
#include "ctrl/scheme/scheme.hpp"
#include "ctrl/source/kind.hpp"

namespace ctrl {

// A reconcile request: the namespace and name of one object (reconcile.Request).
using Request = reconcile::Request;
// What a reconcile asks of the controller next: nothing, a requeue, a requeue after a delay
// (reconcile.Result).
using Result = reconcile::Result;
// What a controller calls for each Request (reconcile.Reconciler).
using Reconciler = reconcile::Reconciler;
// The manager (manager.Manager) and its options (ctrl.Options).
using Manager = manager::Manager;
using Options = manager::Options;

// A Manager for the cluster of config (ctrl.NewManager). Errors name the option that is wrong.
inline StatusOr<std::unique_ptr<Manager>> NewManager(const rest::Config& config, Options options = {}) {
    return manager::New(config, std::move(options));
}

// A builder of a controller that the manager runs (ctrl.NewControllerManagedBy):
// `ctrl::NewControllerManagedBy(*mgr).For<api::Pod>().Owns<api::ConfigMap>().Complete(r)`.
inline builder::Builder NewControllerManagedBy(Manager& mgr) {
    return builder::ControllerManagedBy(mgr);
}

// A builder of the admission webhooks of a kind, served by the manager's webhook server
// (ctrl.NewWebhookManagedBy): `ctrl::NewWebhookManagedBy(*mgr).For<T>().WithValidator(v).Complete()`.
inline builder::WebhookBuilder NewWebhookManagedBy(Manager& mgr) {
    return builder::WebhookManagedBy(mgr);
}

// A Context that ends on SIGTERM or SIGINT; a second signal exits the process at once
// (ctrl.SetupSignalHandler). Call once.
inline Context SetupSignalHandler() {
    return manager::SetupSignalHandler();
}

// The config of the cluster to talk to, found as controller-runtime's ctrl.GetConfig finds it:
// --kubeconfig (and --context) when given on the command line, else in a pod the service account,
// else $KUBECONFIG, else ~/.kube/config. Errors say which places were tried.
inline StatusOr<rest::Config> GetConfig(int argc, const char* const* argv) {
    CTRL_ASSIGN_OR_RETURN(rest::LoadConfigOptions options, rest::ParseConfigFlags(argc, argv));
    return rest::LoadConfig(options);
}
// The same with the operator flags already parsed (manager::ParseFlags takes --kubeconfig off the
// command line).
inline StatusOr<rest::Config> GetConfig(const manager::Flags& flags) {
    rest::LoadConfigOptions options;
    options.kubeconfig = flags.kubeconfig;
    return rest::LoadConfig(options);
}
// The same without a command line: the service account, $KUBECONFIG or ~/.kube/config.
inline StatusOr<rest::Config> GetConfig() {
    return rest::LoadConfig();
}

// The root logger (ctrl.Log): `ctrl::Log().WithName("setup").Info("starting manager")`. Its sink
// and verbosity are the process's (log::SetSink, log::SetVerbosity, the -v and --log-format flags).
inline log::Logger Log() {
    return log::Logger();
}

}  // namespace ctrl
