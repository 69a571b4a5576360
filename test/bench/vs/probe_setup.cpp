#include "test/bench/vs/probe_setup.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/client/option_values.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "test/bench/vs/probe_kind.hpp"

namespace ctrl::bench::vs {
namespace {

using namespace std::chrono_literals;

// WarmUpReads over Kind (PodKind or ServiceMonitorKind).
template <typename Kind>
Task<Status> WarmUpKind(std::string namespace_name, discovery::RESTMapper& mapper, client::Client& reader) {
    Context ctx = Context::WithTimeout(Context::Background(), 60s);
    const GroupVersionKind gvk = scheme::GroupVersionKindOf<typename Kind::Type>();
    std::vector<std::string> versions = {gvk.version};
    const std::string what(Kind::kWhat);
    StatusOr<discovery::RESTMapping> mapping =
        co_await mapper.RESTMapping(ctx, GroupKind(gvk.group, gvk.kind), std::move(versions));
    if (!mapping.Ok())
        co_return mapping.GetStatus().Annotate("resolving " + what + " through the RESTMapper");
    typename Kind::List list;
    Status listed = co_await reader.List(ctx, list, client::InNamespace(namespace_name), client::Limit(1));
    if (!listed.Ok())
        co_return listed.Annotate("listing " + what + " in " + namespace_name + " with limit=1");
    co_return OkStatus();
}

}  // namespace

StatusOr<rest::Config> LoadProbeConfig(const ProbeArgs& args) {
    rest::KubeconfigOptions options;
    options.explicit_path = args.kubeconfig;
    StatusOr<rest::Config> config = rest::LoadKubeconfig(options);
    if (!config.Ok())
        return config.GetStatus().Annotate("kubeconfig " + args.kubeconfig);
    return config;
}

int Fail(const ProbeArgs& args, const std::string& message) {
    std::fprintf(stderr, "ctrl-vs-probe %s: %s\n", args.scenario.c_str(), message.c_str());
    return 1;
}

std::string FirstNamespace(const ProbeArgs& args) {
    return ctrl::testing::WorkloadNamespace(args.layout, 0);
}

Task<Status> WarmUpReads(const ProbeArgs& args, discovery::RESTMapper& mapper, client::Client& reader) {
    if (OverServiceMonitors(args))
        return WarmUpKind<ServiceMonitorKind>(FirstNamespace(args), mapper, reader);
    return WarmUpKind<PodKind>(FirstNamespace(args), mapper, reader);
}

Status WarmUp(const ProbeArgs& args, client::Client& direct, boost::asio::any_io_executor executor) {
    return RunOn(executor, WarmUpReads(args, direct.RESTMapper(), direct));
}

void StopCluster(Context& stop, cluster::Cluster& cluster, Loop& loop) {
    stop.Cancel();
    WaitUntil(10s, [&] { return cluster.GetCache().Stopped(); });
    loop.Stop();
}

StatusOr<cache::Informer*> StartInformer(cluster::Cluster& cluster, Loop& loop, Context& stop,
                                         const GroupVersionKind& gvk) {
    cluster.Start(stop);
    Context within = Context::WithTimeout(Context::Background(), std::chrono::seconds(60));
    StatusOr<std::vector<cache::Informer*>> informers =
        RunOn(loop.Executor(), cluster.GetCache().GetInformers(std::move(within), gvk, false));
    if (informers.Ok() && informers->size() == 1)
        return informers->front();
    StopCluster(stop, cluster, loop);
    if (!informers.Ok())
        return informers.GetStatus();
    return Status(StatusCode::kInternal,
                  std::to_string(informers->size()) + " informers of " + gvk.String() + ", expected 1");
}

Status WaitForSync(cluster::Cluster& cluster, Loop& loop) {
    Context within = Context::WithTimeout(Context::Background(), std::chrono::seconds(600));
    return RunOn(loop.Executor(), cluster.WaitForCacheSync(std::move(within)));
}

}  // namespace ctrl::bench::vs
