#include "test/bench/vs/probe_setup.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/api/pod.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/kubeconfig.hpp"

namespace ctrl::bench::vs {
namespace {

using namespace std::chrono_literals;

Task<Status> WarmUpOnLoop(std::string namespace_name, client::Client& direct) {
    Context ctx = Context::WithTimeout(Context::Background(), 60s);
    std::vector<std::string> versions = {"v1"};
    StatusOr<discovery::RESTMapping> mapping =
        co_await direct.RESTMapper().RESTMapping(ctx, GroupKind("", "Pod"), std::move(versions));
    if (!mapping.Ok())
        co_return mapping.GetStatus().Annotate("resolving pods through the RESTMapper");
    api::PodList pods;
    Status listed = co_await direct.List(ctx, pods, client::InNamespace(namespace_name), client::Limit(1));
    if (!listed.Ok())
        co_return listed.Annotate("listing pods in " + namespace_name + " with limit=1");
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

Status WarmUp(const ProbeArgs& args, client::Client& direct, boost::asio::any_io_executor executor) {
    return RunOn(executor, WarmUpOnLoop(FirstNamespace(args), direct));
}

void StopCluster(Context& stop, cluster::Cluster& cluster, Loop& loop) {
    stop.Cancel();
    WaitUntil(10s, [&] { return cluster.GetCache().Stopped(); });
    loop.Stop();
}

StatusOr<cache::Informer*> StartPodInformer(cluster::Cluster& cluster, Loop& loop, Context& stop) {
    cluster.Start(stop);
    Context within = Context::WithTimeout(Context::Background(), std::chrono::seconds(60));
    StatusOr<std::vector<cache::Informer*>> informers =
        RunOn(loop.Executor(), cluster.GetCache().GetInformersFor<api::Pod>(std::move(within)));
    if (informers.Ok() && informers->size() == 1)
        return informers->front();
    StopCluster(stop, cluster, loop);
    if (!informers.Ok())
        return informers.GetStatus();
    return Status(StatusCode::kInternal, std::to_string(informers->size()) + " pod informers, expected 1");
}

Status WaitForSync(cluster::Cluster& cluster, Loop& loop) {
    Context within = Context::WithTimeout(Context::Background(), std::chrono::seconds(600));
    return RunOn(loop.Executor(), cluster.WaitForCacheSync(std::move(within)));
}

}  // namespace ctrl::bench::vs
