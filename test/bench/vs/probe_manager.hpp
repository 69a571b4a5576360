#pragma once

// What the manager scenarios of ctrl-vs-probe (reconcile, idle) share: the manager made from the
// kubeconfig as an operator's main() makes it, and the protocol's warm-up on that manager's own
// client and RESTMapper before its Start.

#include <memory>
#include <string>

#include "ctrl/core/status_or.hpp"
#include "ctrl/manager/manager.hpp"
#include "test/bench/vs/probe_args.hpp"

namespace ctrl::bench::vs {

// manager::New over the kubeconfig at path with options.
StatusOr<std::unique_ptr<manager::Manager>> NewManagerFromKubeconfig(const std::string& path, manager::Options options);

// NewManagerFromKubeconfig over --kubeconfig with the scheme of the scenario's kind (ProbeScheme:
// the default for pods; built-in kinds and ServiceMonitor with --servicemonitors).
StatusOr<std::unique_ptr<manager::Manager>> NewProbeManager(const ProbeArgs& args, manager::Options options);

// PROTOCOL.md's warm-up, before mgr.Start: resolves the scenario's kind (pods, or ServiceMonitors
// with --servicemonitors) through the manager's RESTMapper and makes one direct List (the manager's
// API reader) of it in the layout's first namespace with limit=1, so that the TLS connection and
// the kind's discovery are done. Runs on the manager's own event
// loop (the calling thread runs it until the calls end, as Go's calls before mgr.Start run on the
// calling goroutine); must be called before Start, from one thread.
Status WarmUpManager(manager::Manager& mgr, const ProbeArgs& args);

}  // namespace ctrl::bench::vs
