#include "test/bench/vs/probe_manager.hpp"

#include <utility>

#include <boost/asio/execution/context.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/query.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "test/bench/vs/probe_kind.hpp"
#include "test/bench/vs/probe_setup.hpp"

namespace ctrl::bench::vs {

StatusOr<std::unique_ptr<manager::Manager>> NewManagerFromKubeconfig(const std::string& path,
                                                                     manager::Options options) {
    rest::KubeconfigOptions kubeconfig;
    kubeconfig.explicit_path = path;
    StatusOr<rest::Config> config = rest::LoadKubeconfig(kubeconfig);
    if (!config.Ok())
        return config.GetStatus().Annotate("kubeconfig " + path);
    return manager::New(*config, std::move(options));
}

StatusOr<std::unique_ptr<manager::Manager>> NewProbeManager(const ProbeArgs& args, manager::Options options) {
    StatusOr<std::shared_ptr<scheme::Scheme>> kinds = ProbeScheme(args);
    if (!kinds.Ok())
        return kinds.GetStatus().Annotate("scheme");
    options.scheme = *std::move(kinds);
    return NewManagerFromKubeconfig(args.kubeconfig, std::move(options));
}

Status WarmUpManager(manager::Manager& mgr, const ProbeArgs& args) {
    // The manager's loop is an io_context that only its Start runs; before Start nothing else
    // runs it, so this thread may (RunSync leaves it restartable for Start).
    auto& io =
        static_cast<boost::asio::io_context&>(boost::asio::query(mgr.GetExecutor(), boost::asio::execution::context));
    return RunSync(io, WarmUpReads(args, mgr.GetRESTMapper(), mgr.GetAPIReader()));
}

}  // namespace ctrl::bench::vs
