// reconcile --workers W [--load] [--servicemonitors] (PROTOCOL.md): a manager with one controller
// for pods (or ServiceMonitors) whose reconciler reads its object from the manager's client (the
// cache), measured from Start to every object reconciled once, then optionally under the driver's
// patch load (pods only).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "ctrl/builder/builder.hpp"
#include "ctrl/manager/manager.hpp"
#include "test/bench/annotation_patch_load.hpp"
#include "test/bench/bench_process.hpp"
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

// The operator's reconciler: Gets its object (a pod, or a ServiceMonitor of the generated kind)
// through the manager's client into a typed object (a copy out of the cache), notes its first
// reconcile (timer) and, while noting is on, the start of the first reconcile that saw each value
// of the load's annotation; then succeeds.
template <typename T>
class TypedReconciler final : public reconcile::Reconciler {
  public:
    TypedReconciler(client::Client& client, std::shared_ptr<ReconcileTimer> timer, SeenValues& seen)
        : client_(client), timer_(std::move(timer)), seen_(seen) {}

    Task<StatusOr<reconcile::Result>> Reconcile(Context ctx, reconcile::Request request) override {
        const int64_t started = UnixNanos();
        T object;
        const Status got = co_await client_.Get(ctx, request, object);
        if (!got.Ok()) {
            if (IsNotFound(got))
                co_return reconcile::Result{};
            co_return got;
        }
        if (noting_.load(std::memory_order_relaxed)) {
            if (const std::optional<std::string_view> value = object.Annotation(AnnotationPatchLoad::kAnnotation)) {
                seen_.Note(*value, started);
                cpu_at_last_value_.store(CpuSeconds());
            }
        }
        co_return co_await timer_->Reconcile(std::move(ctx), std::move(request));
    }

    // From now on, note the load's annotation values (off for the first pass, so that it is the
    // same pass with or without --load).
    void StartNoting() { noting_.store(true); }
    // The process's CPU seconds when a reconcile last noted a value (a getrusage call, ~0.3 us, as
    // the watch scenario's handler: the load's CPU ends at the last value seen, not at STOP); 0
    // before.
    double CpuAtLastValue() const { return cpu_at_last_value_.load(); }

  private:
    client::Client& client_;
    const std::shared_ptr<ReconcileTimer> timer_;
    SeenValues& seen_;
    std::atomic<bool> noting_{false};
    std::atomic<double> cpu_at_last_value_{0};
};

double Seconds(int64_t nanoseconds) {
    return static_cast<double>(nanoseconds) / 1e9;
}

// Under the driver's patch load (--load, after the first pass): notes the load's values from now
// on, awaits STOP, waits until every value answered OK was seen, and adds the load's figures. An
// error when STOP fails or the record holds no patch answered OK.
template <typename Reconciler>
Status MeasureLoad(const ReconcileTimer& timer, Reconciler& reconciler, SeenValues& seen, Figures& figures) {
    const int64_t load_reconciles_before = timer.Reconciles();
    const double cpu_at_synced = CpuSeconds();
    reconciler.StartNoting();
    StatusOr<LoadRecord> record = AwaitStop();
    if (!record.Ok())
        return record.GetStatus().Annotate("STOP");
    WaitUntilAllSeen(*record, seen);
    const int64_t load_reconciles = timer.Reconciles() - load_reconciles_before;
    std::fprintf(stderr,
                 "ctrl-vs-probe reconcile: %lld reconciles during the load; %d patches of this load answered OK\n",
                 static_cast<long long>(load_reconciles), record->Answered());
    if (record->Answered() == 0)
        return InternalError("the load record holds no patch answered OK: nothing to measure");
    Figures load = LoadFigures(*record, seen);
    figures["load_reconciles"] = static_cast<double>(load_reconciles);
    figures["reconciles_per_s"] = load["events_per_s"];
    figures["missed"] = load["missed"];
    for (const char* key : {"delay_send_p50_ms", "delay_send_p99_ms", "delay_answer_p50_ms", "delay_answer_p99_ms"})
        figures[key] = load[key];
    figures["load_cpu_s"] = std::max(0.0, reconciler.CpuAtLastValue() - cpu_at_synced);
    return OkStatus();
}

// RunReconcile over Kind's objects.
template <typename Kind>
int ReconcileKind(const ProbeArgs& args, int workers) {
    const bool with_load = args.Switch("load");
    const Clock::time_point origin = Clock::now();

    // As PROTOCOL.md says: leader election off (the default), metrics and probes off.
    manager::Options options;
    options.metrics.bind_address = "0";
    options.health_probe_bind_address = "0";
    StatusOr<std::unique_ptr<manager::Manager>> made = NewProbeManager(args, options);
    if (!made.Ok())
        return Fail(args, "manager: " + made.GetStatus().ToString());
    std::unique_ptr<manager::Manager> mgr = std::move(made).Value();
    if (Status warmed = WarmUpManager(*mgr, args); !warmed.Ok())
        return Fail(args, "warm-up: " + warmed.ToString());

    SeenValues seen;
    auto timer = std::make_shared<ReconcileTimer>(args.layout, origin, nullptr, nullptr, Kind::kNamePrefix);
    auto reconciler = std::make_shared<TypedReconciler<typename Kind::Type>>(mgr->GetClient(), timer, seen);
    const Status built = builder::ControllerFor<typename Kind::Type>(*mgr)
                             .WithOptions(controller::Options{.max_concurrent_reconciles = workers})
                             .Complete(reconciler);
    if (!built.Ok())
        return Fail(args, "controller: " + built.ToString());

    (void)SettledMemory();  // the protocol's settle before the baseline
    const double cpu_before = CpuSeconds();
    const int64_t start = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - origin).count();
    Context stop = Context::WithCancel(Context::Background());
    manager::Manager& running = *mgr;
    std::future<Status> done = std::async(std::launch::async, [&running, stop] { return running.Start(stop); });
    auto stop_manager = [&] {
        stop.Cancel();
        if (done.wait_for(60s) != std::future_status::ready)
            return InternalError("the manager did not stop within 60 s");
        return done.get();
    };

    const Clock::time_point deadline = Clock::now() + 600s;
    while (timer->AllSeen().wait_for(50ms) != std::future_status::ready) {
        if (done.wait_for(0s) == std::future_status::ready)
            return Fail(args, "the manager stopped before every object was reconciled: " + done.get().ToString());
        if (Clock::now() > deadline) {
            (void)stop_manager();
            return Fail(args, std::to_string(timer->PodsSeen()) + " of " + std::to_string(timer->Pods()) +
                                  " objects reconciled after 600 s");
        }
    }
    const double cpu_seconds = CpuSeconds() - cpu_before;
    const int64_t reconciles = timer->Reconciles();
    const Memory after = SettledMemory();
    Figures figures;
    figures["pods"] = timer->Pods();
    figures["first_s"] = Seconds(timer->FirstReconcileAt() - start);
    figures["all_s"] = Seconds(timer->LastFirstReconcileAt() - start);
    figures["cpu_s"] = cpu_seconds;
    figures["reconciles"] = static_cast<double>(reconciles);
    figures["rss_after_bytes"] = static_cast<double>(after.rss);
    figures["heap_after_bytes"] = static_cast<double>(after.heap);
    if (timer->Strangers() > 0)
        std::fprintf(stderr, "ctrl-vs-probe reconcile: %lld reconciles of objects outside the layout\n",
                     static_cast<long long>(timer->Strangers()));

    if (with_load) {
        if (Status measured = MeasureLoad(*timer, *reconciler, seen, figures); !measured.Ok()) {
            (void)stop_manager();
            return Fail(args, measured.ToString());
        }
    }

    if (Status stopped = stop_manager(); !stopped.Ok())
        return Fail(args, "the manager stopped with " + stopped.ToString());
    PrintResult(figures);
    return 0;
}

}  // namespace

// reconcile --workers W [--load] [--servicemonitors]: a manager with one controller for pods (or
// ServiceMonitors); the patch load patches pods, so --load goes with pods only.
int RunReconcile(const ProbeArgs& args) {
    const double workers_flag = args.Number("workers", 1);
    if (workers_flag < 1 || workers_flag != static_cast<int>(workers_flag)) {
        std::fprintf(stderr, "ctrl-vs-probe reconcile: --workers %g: not a count of at least 1\n", workers_flag);
        return 2;
    }
    if (args.Switch("load") && OverServiceMonitors(args)) {
        std::fprintf(stderr, "ctrl-vs-probe reconcile: --load patches pods; it does not go with --servicemonitors\n");
        return 2;
    }
    const int workers = static_cast<int>(workers_flag);
    return ForKind(args, [&]<typename Kind>() { return ReconcileKind<Kind>(args, workers); });
}

}  // namespace ctrl::bench::vs
