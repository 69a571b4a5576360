// idle [--seconds S] [--servicemonitors] (PROTOCOL.md): a manager as an operator's main() makes
// it, with one no-op controller for pods (or ServiceMonitors); once every object was reconciled
// once and 2 s have passed, S seconds of the idle process: memory, threads, CPU and wakeups.

#include <chrono>
#include <cstdio>
#include <future>
#include <memory>
#include <string>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "ctrl/builder/builder.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/manager/signals.hpp"
#include "ctrl/server/health_checks.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/process_stats.hpp"
#include "test/bench/reconcile_timer.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/probe_kind.hpp"
#include "test/bench/vs/probe_manager.hpp"
#include "test/bench/vs/probe_setup.hpp"
#include "test/bench/vs/scenarios.hpp"

namespace ctrl::bench::vs {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// What the idle measurement needs and finds.
struct IdleRun {
    double idle_seconds = 10;
    int64_t start = 0;  // the manager's Start, ns after origin
    // The manager's Start context: the operator's signal context, ended here once measured.
    Context stop = Context::WithCancel(manager::SetupSignalHandler());
    bool measured = false;
    std::string failure;
    Figures figures;
};

// Runs on the manager's own loop (as a Go peer's measuring goroutine runs on its runtime's threads),
// so that the process holds only the threads an operator's has: main() blocked in Start and the
// manager's loop threads. Waits until every object was reconciled once, waits 2 s, measures the idle
// process for run.idle_seconds, then stops the manager.
Task<void> MeasureIdle(const ReconcileTimer& timer, IdleRun& run) {
    const Clock::time_point deadline = Clock::now() + 600s;
    while (timer.AllSeen().wait_for(0s) != std::future_status::ready) {
        if (Clock::now() > deadline) {
            run.failure = std::to_string(timer.PodsSeen()) + " of " + std::to_string(timer.Pods()) +
                          " objects reconciled after 600 s";
            run.stop.Cancel();
            co_return;
        }
        if (!(co_await SleepFor(run.stop, 10ms)).Ok())
            co_return;
    }
    const double all_s = static_cast<double>(timer.LastFirstReconcileAt() - run.start) / 1e9;

    // Idle: nothing changes in the cluster; let the last reconciles and requests settle first.
    if (!(co_await SleepFor(run.stop, 2s)).Ok())
        co_return;
    const int64_t reconciles_before = timer.Reconciles();
    const ProcessSnapshot idle_start = SnapshotProcess();
    const double cpu_before = CpuSeconds();
    const Clock::time_point wall_start = Clock::now();
    const auto idle = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(run.idle_seconds));
    if (!(co_await SleepFor(run.stop, idle)).Ok())
        co_return;
    const double cpu_seconds = CpuSeconds() - cpu_before;
    const double wall_seconds = std::chrono::duration<double>(Clock::now() - wall_start).count();
    const ProcessSnapshot idle_end = SnapshotProcess();
    const int64_t reconciles_idle = timer.Reconciles() - reconciles_before;
    const Memory settled = SettledMemory();  // after the raw figures: it trims the heap

    Figures& figures = run.figures;
    figures["pods"] = timer.Pods();
    figures["all_s"] = all_s;
    figures["rss_bytes"] = static_cast<double>(idle_end.rss);
    figures["rss_settled_bytes"] = static_cast<double>(settled.rss);
    figures["heap_bytes"] = static_cast<double>(settled.heap);
    figures["rss_peak_bytes"] = static_cast<double>(idle_end.rss_peak);
    figures["threads"] = idle_end.threads;
    figures["cpu_ms_per_s"] = cpu_seconds * 1000 / wall_seconds;
    figures["wakeups_per_s"] =
        static_cast<double>(idle_end.context_switches - idle_start.context_switches) / wall_seconds;
    figures["reconciles_idle"] = static_cast<double>(reconciles_idle);
    run.measured = true;
    run.stop.Cancel();
}

// RunIdle over Kind's objects.
template <typename Kind>
int IdleKind(const ProbeArgs& args, double idle_seconds) {
    const Clock::time_point origin = Clock::now();

    // kubebuilder's main(): metrics and probes served (plain HTTP, here on free loopback ports),
    // ping checks for /healthz and /readyz, leader election off; ctrl's default cache transform
    // strips managedFields and the manager's default threads run the loop.
    manager::Options options;
    options.metrics.bind_address = "127.0.0.1:0";
    options.health_probe_bind_address = "127.0.0.1:0";
    StatusOr<std::unique_ptr<manager::Manager>> made = NewProbeManager(args, options);
    if (!made.Ok())
        return Fail(args, "manager: " + made.GetStatus().ToString());
    std::unique_ptr<manager::Manager> mgr = std::move(made).Value();
    if (Status added = mgr->AddHealthzCheck("healthz", server::Ping); !added.Ok())
        return Fail(args, "healthz check: " + added.ToString());
    if (Status added = mgr->AddReadyzCheck("readyz", server::Ping); !added.Ok())
        return Fail(args, "readyz check: " + added.ToString());
    if (Status warmed = WarmUpManager(*mgr, args); !warmed.Ok())
        return Fail(args, "warm-up: " + warmed.ToString());

    // The no-op reconciler (1 worker, the default): it only notes each object's first reconcile.
    auto timer = std::make_shared<ReconcileTimer>(args.layout, origin, nullptr, nullptr, Kind::kNamePrefix);
    if (Status built = builder::ControllerFor<typename Kind::Type>(*mgr).Complete(timer); !built.Ok())
        return Fail(args, "controller: " + built.ToString());

    IdleRun run;
    run.idle_seconds = idle_seconds;
    boost::asio::co_spawn(mgr->GetExecutor(), MeasureIdle(*timer, run), boost::asio::detached);

    (void)SettledMemory();  // the protocol's settle before the baseline
    run.start = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - origin).count();
    // As an operator's main(): Start(SetupSignalHandler()) on this thread, here until the measurement
    // stops it.
    const Status ran = mgr->Start(run.stop);
    if (!run.measured)
        return Fail(
            args, run.failure.empty() ? "the manager stopped before the measurement: " + ran.ToString() : run.failure);
    if (!ran.Ok())
        return Fail(args, "the manager stopped with " + ran.ToString());
    PrintResult(run.figures);
    return 0;
}

}  // namespace

int RunIdle(const ProbeArgs& args) {
    const double idle_seconds = args.Number("seconds", 10);
    if (!(idle_seconds > 0)) {
        std::fprintf(stderr, "ctrl-vs-probe idle: --seconds %g: must be positive\n", idle_seconds);
        return 2;
    }
    return ForKind(args, [&]<typename Kind>() { return IdleKind<Kind>(args, idle_seconds); });
}

}  // namespace ctrl::bench::vs
