#include "test/bench/controller_probe.hpp"

#include <chrono>
#include <cstdio>
#include <future>
#include <memory>
#include <sstream>
#include <utility>
#include <vector>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/api/pod.hpp"
#include "ctrl/builder/builder.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "test/bench/annotation_patch_load.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/reconcile_timer.hpp"
#include "test/support/cluster_host.hpp"

namespace ctrl::bench {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

Context Within(Clock::duration timeout) {
    return Context::WithTimeout(Context::Background(), timeout);
}

double Seconds(int64_t nanoseconds) {
    return static_cast<double>(nanoseconds) / 1e9;
}

int Fail(const std::string& message) {
    std::fprintf(stderr, "controller_bench probe: %s\n", message.c_str());
    return 1;
}

// Runs the patch load against a controller whose reconciler is timer (made with load), and
// appends its figures to out: patches/s, reconciles/s, delays from a patch's send and answer to
// the start of the first reconcile that saw it, CPU of the process and of the controller's loop.
Status MeasurePatchLoad(const rest::Config& config, const ControllerProbeOptions& options, AnnotationPatchLoad& load,
                        const ReconcileTimer& timer, Loop& loop, std::ostream& out) {
    const int64_t reconciles_before = timer.Reconciles();
    const double cpu_before = CpuSeconds();
    const double loop_cpu_before = loop.ThreadCpuSeconds();
    if (Status sent = load.Run(config, options.layout, options.patch_concurrency, options.patch_seconds); !sent.Ok())
        return sent;
    // Every answered patch must reach a reconcile; wait at most 30 s for the stragglers.
    auto unseen = [&] {
        int count = 0;
        for (int i = 0; i < load.Sent(); ++i)
            count += load.AnsweredAt(i) >= 0 && timer.PatchSeenAt(i) < 0 ? 1 : 0;
        return count;
    };
    WaitUntil(30s, [&] { return unseen() == 0; });
    const double cpu_seconds = CpuSeconds() - cpu_before;
    const double loop_cpu_seconds = loop.ThreadCpuSeconds() - loop_cpu_before;

    std::vector<int64_t> send_to_reconcile, answer_to_reconcile;
    for (int i = 0; i < load.Sent(); ++i) {
        const int64_t seen = timer.PatchSeenAt(i);
        if (load.AnsweredAt(i) < 0 || seen < 0)
            continue;
        send_to_reconcile.push_back(seen - load.SentAt(i));
        answer_to_reconcile.push_back(seen - load.AnsweredAt(i));
    }
    const int64_t reconciles = timer.Reconciles() - reconciles_before;
    out << " patches=" << load.Answered() << " patch_errors=" << load.Errors() << " patch_s=" << load.Seconds()
        << " reconciles=" << reconciles << " reconcile_window_s=" << Seconds(timer.LastReconcileAt() - load.StartedAt())
        << " unseen=" << unseen() << " send_reconcile_p50_ms=" << QuantileMs(send_to_reconcile, 0.5)
        << " send_reconcile_p99_ms=" << QuantileMs(send_to_reconcile, 0.99)
        << " answer_reconcile_p50_ms=" << QuantileMs(answer_to_reconcile, 0.5)
        << " answer_reconcile_p99_ms=" << QuantileMs(answer_to_reconcile, 0.99) << " load_cpu_s=" << cpu_seconds
        << " load_loop_cpu_s=" << loop_cpu_seconds;
    if (load.Errors() > 0)
        std::fprintf(stderr, "controller_bench: %d patches failed; the first: %s\n", load.Errors(),
                     load.FirstError().c_str());
    return OkStatus();
}

}  // namespace

int RunControllerProbe(const ControllerProbeOptions& options) {
    const Clock::time_point origin = Clock::now();
    rest::KubeconfigOptions kubeconfig;
    kubeconfig.explicit_path = options.kubeconfig;
    StatusOr<rest::Config> config = rest::LoadKubeconfig(kubeconfig);
    if (!config.Ok())
        return Fail("kubeconfig: " + config.GetStatus().ToString());

    std::ostringstream out;
    out.precision(15);
    Loop loop;  // the operator's one io thread: cache, controller and reconciles
    metrics::Registry registry;
    cluster::Options cluster_options;
    cluster_options.registry = &registry;
    StatusOr<std::unique_ptr<cluster::Cluster>> made = cluster::Cluster::New(*config, loop.Executor(), cluster_options);
    if (!made.Ok())
        return Fail("cluster: " + made.GetStatus().ToString());
    std::unique_ptr<cluster::Cluster> cluster = std::move(made).Value();

    // Warm-up, outside the figures (as in cache_sync_bench): the TLS connection and the discovery
    // of pods, which an operator's client has done before its manager starts.
    const Clock::time_point warm_start = Clock::now();
    StatusOr<discovery::RESTMapping> mapping =
        RunOn(loop.Executor(), cluster->GetRESTMapper().RESTMapping(Within(60s), GroupKind{"", "Pod"}, {"v1"}));
    if (!mapping.Ok())
        return Fail("discovery of pods: " + mapping.GetStatus().ToString());
    const double warm_seconds = std::chrono::duration<double>(Clock::now() - warm_start).count();

    std::unique_ptr<AnnotationPatchLoad> load;
    if (options.patch_seconds > 0)
        load = std::make_unique<AnnotationPatchLoad>(origin);
    auto timer = std::make_shared<ReconcileTimer>(options.layout, origin, &cluster->GetCache(), load.get());
    auto host = std::make_unique<ctrl::testing::ClusterHost>(*cluster, registry);
    const Status built = builder::ControllerFor<api::Pod>(*host)
                             .WithOptions(controller::Options{.max_concurrent_reconciles = options.workers})
                             .Complete(timer);
    if (!built.Ok())
        return Fail("controller: " + built.ToString());

    // From the host's Run (cache and controller start) to every pod reconciled once.
    const Memory before = SettledMemory();
    const double cpu_before = CpuSeconds();
    const auto start = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - origin).count();
    Context stop = Context::WithCancel(Context::Background());
    auto host_done = std::make_shared<std::promise<Status>>();
    boost::asio::co_spawn(loop.Executor(), host->Run(stop), [host_done](std::exception_ptr error, Status status) {
        host_done->set_value(error ? InternalError("the host threw") : status);
    });
    if (timer->AllSeen().wait_for(600s) != std::future_status::ready)
        return Fail(std::to_string(timer->PodsSeen()) + " of " + std::to_string(timer->Pods()) +
                    " pods reconciled after 600 s");
    const double cpu_seconds = CpuSeconds() - cpu_before;
    const Memory after = SettledMemory();
    out << "RESULT pods=" << timer->Pods() << " workers=" << options.workers << " warm_s=" << warm_seconds
        << " first_s=" << Seconds(timer->FirstReconcileAt() - start)
        << " all_s=" << Seconds(timer->LastFirstReconcileAt() - start) << " cpu_s=" << cpu_seconds
        << " reconciles_at_sync=" << timer->Reconciles() << " strangers=" << timer->Strangers()
        << " rss_before=" << before.rss << " rss_after=" << after.rss << " heap_before=" << before.heap
        << " heap_after=" << after.heap;

    Status measured = OkStatus();
    if (load != nullptr)
        measured = MeasurePatchLoad(*config, options, *load, *timer, loop, out);

    stop.Cancel();
    std::future<Status> done = host_done->get_future();
    if (done.wait_for(60s) != std::future_status::ready)
        return Fail("the host did not stop within 60 s");
    host.reset();
    cluster.reset();
    loop.Stop();
    if (!measured.Ok())
        return Fail("patch load: " + measured.ToString());
    if (Status ran = done.get(); !ran.Ok())
        std::fprintf(stderr, "controller_bench probe: the host stopped with %s\n", ran.ToString().c_str());
    std::printf("%s\n", out.str().c_str());
    std::fflush(stdout);
    return 0;
}

}  // namespace ctrl::bench
