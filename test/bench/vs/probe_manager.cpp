#include "test/bench/vs/probe_manager.hpp"

#include <chrono>
#include <cstdio>
#include <utility>
#include <vector>

#include <boost/asio/execution/context.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/query.hpp>

#include "ctrl/api/pod.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/kubeconfig.hpp"

namespace ctrl::bench::vs {
namespace {

Task<Status> WarmUp(manager::Manager& mgr, std::string namespace_name) {
    const Context ctx = Context::WithTimeout(Context::Background(), std::chrono::seconds(60));
    GroupKind pods("", "Pod");
    std::vector<std::string> versions = {"v1"};
    StatusOr<discovery::RESTMapping> mapping = co_await mgr.GetRESTMapper().RESTMapping(ctx, pods, versions);
    if (!mapping.Ok())
        co_return mapping.GetStatus().Annotate("resolving pods through the manager's RESTMapper");
    api::PodList list;
    const Status listed =
        co_await mgr.GetAPIReader().List(ctx, list, client::InNamespace(namespace_name), client::Limit(1));
    if (!listed.Ok())
        co_return listed.Annotate("the direct List of pods in " + namespace_name + " with limit=1");
    co_return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<manager::Manager>> NewManagerFromKubeconfig(const std::string& path,
                                                                     manager::Options options) {
    rest::KubeconfigOptions kubeconfig;
    kubeconfig.explicit_path = path;
    StatusOr<rest::Config> config = rest::LoadKubeconfig(kubeconfig);
    if (!config.Ok())
        return config.GetStatus().Annotate("kubeconfig " + path);
    return manager::New(*config, std::move(options));
}

Status WarmUpManager(manager::Manager& mgr, const ctrl::testing::WorkloadOptions& layout) {
    // The manager's loop is an io_context that only its Start runs; before Start nothing else
    // runs it, so this thread may (RunSync leaves it restartable for Start).
    auto& io =
        static_cast<boost::asio::io_context&>(boost::asio::query(mgr.GetExecutor(), boost::asio::execution::context));
    return RunSync(io, WarmUp(mgr, ctrl::testing::WorkloadNamespace(layout, 0)));
}

}  // namespace ctrl::bench::vs
