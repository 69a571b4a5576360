// A small operator for the manager's process tests: a controller over the ConfigMaps of one
// namespace whose reconcile prints "reconcile-start <key>", sleeps, and prints "reconcile-end <key>"
// (stdout, one line each, flushed; --quiet leaves them out), run by a manager::Manager with the
// standard operator flags. It also prints "elected <ms>" when its leader runnables start and
// "first-reconcile <ms>" when the first reconcile starts, and "list <ms> <path>" for every LIST and
// watch-list of ConfigMaps it sends (milliseconds of the system clock).
//
//   ctrl-manager-testbin --kubeconfig K --namespace NS [--reconcile-seconds 2] [--max-concurrent 20]
//       [--graceful-timeout-seconds 30] [--lease-duration-ms 15000 --renew-deadline-ms 10000
//        --retry-period-ms 2000] [--release-on-cancel] [--quiet]
//       [manager flags: --leader-elect, --enable-warmup, ...]
// Exit code 0 after a clean stop (SIGTERM), 1 on an error, 2 for bad flags.

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "ctrl/api/config_map.hpp"
#include "ctrl/builder/builder.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/manager/flags.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/manager/signals.hpp"
#include "ctrl/rest/load_config.hpp"
#include "test/support/list_requests.hpp"

namespace {

int Usage(const std::string& problem) {
    std::fprintf(stderr, "ctrl-manager-testbin: %s\n", problem.c_str());
    return 2;
}

void Say(const std::string& line) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
}

std::string NowMs() {
    return std::to_string(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
}

// Prints "elected <ms>" when the manager starts its leader election runnables.
class SayElected final : public ctrl::manager::Runnable {
  public:
    ctrl::Task<ctrl::Status> Run(ctrl::Context) override {
        Say("elected " + NowMs());
        co_return ctrl::OkStatus();
    }
    std::string Name() const override { return "say-elected"; }
};

}  // namespace

int main(int argc, char** argv) {
    const ctrl::Context ctx = ctrl::manager::SetupSignalHandler();
    ctrl::StatusOr<ctrl::manager::Flags> flags = ctrl::manager::ParseFlags(argc, argv);
    if (!flags.Ok())
        return Usage(flags.GetStatus().ToString());
    std::string ns;
    double reconcile_seconds = 2;
    int max_concurrent = 20;
    bool quiet = false;
    ctrl::manager::Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--namespace" && has_value)
            ns = argv[++i];
        else if (arg == "--reconcile-seconds" && has_value)
            reconcile_seconds = std::atof(argv[++i]);
        else if (arg == "--max-concurrent" && has_value)
            max_concurrent = std::atoi(argv[++i]);
        else if (arg == "--graceful-timeout-seconds" && has_value)
            options.graceful_shutdown_timeout = std::chrono::milliseconds(std::atoi(argv[++i]) * 1000);
        else if (arg == "--lease-duration-ms" && has_value)
            options.leader_election.lease_duration = std::chrono::milliseconds(std::atoi(argv[++i]));
        else if (arg == "--renew-deadline-ms" && has_value)
            options.leader_election.renew_deadline = std::chrono::milliseconds(std::atoi(argv[++i]));
        else if (arg == "--retry-period-ms" && has_value)
            options.leader_election.retry_period = std::chrono::milliseconds(std::atoi(argv[++i]));
        else if (arg == "--release-on-cancel")
            options.leader_election.release_on_cancel = true;
        else if (arg == "--quiet")
            quiet = true;
        else
            return Usage("unknown argument " + std::string(arg));
    }
    if (ns.empty())
        return Usage("--namespace is required");
    ctrl::manager::ApplyFlags(*flags, options);
    options.cache.default_namespaces = {ns};

    ctrl::rest::LoadConfigOptions load;
    load.kubeconfig = flags->kubeconfig;
    ctrl::StatusOr<ctrl::rest::Config> config = ctrl::rest::LoadConfig(load);
    if (!config.Ok())
        return Usage(config.GetStatus().ToString());
    config->wrap_transport =
        ctrl::testing::NoteLists("configmaps", [](const std::string& path) { Say("list " + NowMs() + " " + path); });
    ctrl::StatusOr<std::unique_ptr<ctrl::manager::Manager>> mgr = ctrl::manager::New(*config, options);
    if (!mgr.Ok())
        return Usage(mgr.GetStatus().ToString());

    const auto sleep_for = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(reconcile_seconds));
    const auto first_reconcile = std::make_unique<std::atomic<bool>>(false);
    const ctrl::Status built =
        ctrl::builder::ControllerFor<ctrl::api::ConfigMap>(**mgr)
            .Named("testbin")
            .WithOptions(ctrl::controller::Options{.max_concurrent_reconciles = max_concurrent})
            .Complete(ctrl::reconcile::AsReconciler(
                [sleep_for, quiet, first = first_reconcile.get()](ctrl::Context rctx, ctrl::reconcile::Request request)
                    -> ctrl::Task<ctrl::StatusOr<ctrl::reconcile::Result>> {
                    if (!first->exchange(true))
                        Say("first-reconcile " + NowMs());
                    const std::string key = request.String();
                    if (!quiet)
                        Say("reconcile-start " + key);
                    const ctrl::Status slept = co_await ctrl::SleepFor(rctx, sleep_for);
                    if (!quiet)
                        Say("reconcile-end " + key + (slept.Ok() ? "" : " " + slept.ToString()));
                    co_return ctrl::reconcile::Result{};
                }));
    if (!built.Ok())
        return Usage(built.ToString());
    if (const ctrl::Status added = (*mgr)->Add(std::make_shared<SayElected>()); !added.Ok())
        return Usage(added.ToString());
    Say("identity " + (*mgr)->Identity());
    const ctrl::Status stopped = (*mgr)->Start(ctx);
    Say("exit " + stopped.ToString());
    return stopped.Ok() ? 0 : 1;
}
