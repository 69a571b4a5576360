#pragma once

// What the scenarios that talk to the control plane share (PROTOCOL.md, "Invocation"): the
// kubeconfig, the failure message, and the warm-up every probe makes before its measured interval.

#include <string>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/cache/informer.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/discovery/rest_mapper.hpp"
#include "ctrl/rest/config.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/vs/probe_args.hpp"

namespace ctrl::bench::vs {

// The config of --kubeconfig.
StatusOr<rest::Config> LoadProbeConfig(const ProbeArgs& args);

// Prints "ctrl-vs-probe <scenario>: <message>" on stderr; returns 1, the exit code of a failure.
int Fail(const ProbeArgs& args, const std::string& message);

// The namespace of the workload's first namespace, P-1.
std::string FirstNamespace(const ProbeArgs& args);

// The warm-up's requests, awaited on the caller's loop: resolves the scenario's kind (pods, or
// ServiceMonitors with --servicemonitors) through mapper and makes one List of it in P-1 with
// limit=1 through reader (a direct client: the TLS connection and discovery are then done).
Task<Status> WarmUpReads(const ProbeArgs& args, discovery::RESTMapper& mapper, client::Client& reader);

// The warm-up, never measured: WarmUpReads with client's RESTMapper. Runs on executor, the
// client's loop; call it from outside that loop.
Status WarmUp(const ProbeArgs& args, client::Client& direct, boost::asio::any_io_executor executor);

// Starts cluster (its cache runs until stop is cancelled) and makes its informer of gvk, waiting up
// to 60 s; on failure stops the cluster (StopCluster) and returns the error.
StatusOr<cache::Informer*> StartInformer(cluster::Cluster& cluster, Loop& loop, Context& stop,
                                         const GroupVersionKind& gvk);

// Waits up to 600 s for cluster's cache to sync.
Status WaitForSync(cluster::Cluster& cluster, Loop& loop);

// Ends what runs on loop for cluster: cancels stop (the context its cache runs under), waits up to
// 10 s for the cache's informers to return, then stops the loop.
void StopCluster(Context& stop, cluster::Cluster& cluster, Loop& loop);

}  // namespace ctrl::bench::vs
