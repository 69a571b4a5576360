// The controller layer against a real control plane (issue 13, acceptance 8): N realistic pods
// (default 10,000) made with the workload tool, then a controller for pods built as an operator
// builds it (cluster::Cluster over the kubeconfig, a host, builder::ControllerFor<api::Pod>) with
// a no-op reconciler:
//  - from the host's Run (cache and controller start) to every pod reconciled once, with 1 and 4
//    workers (max_concurrent_reconciles): time, the process's CPU (user + sys) in all and per pod,
//    and its RSS after;
//  - under a merge-patch load of one annotation (round robin over the pods, 32 and 4 patches in
//    flight for 10 s): reconciles/s, and the delay from a patch's send (and its answer) to the
//    start of the first reconcile that read the patched pod from the cache, p50 / p99.
//
// Each controller runs in a child process of its own (this program with --probe), on one io
// thread, so its CPU and RSS hold nothing of the workload's creation or of another controller.
// Figures are printed, not asserted.
//
//   controller_bench [--pods N] [--workers W[,W...] (1,4)] [--patch-seconds S (10)]
//                    [--patch-concurrency C[,C...] (32,4)] [--patch-workers W[,W...] (1,4)]
// N also comes from $CTRL_BENCH_PODS. --patch-seconds 0 skips the loads.
// Flags of google-benchmark (--benchmark_*), which hack/bench.sh may pass, are ignored.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "test/bench/bench_process.hpp"
#include "test/bench/bench_workload.hpp"
#include "test/bench/controller_probe.hpp"
#include "test/support/control_plane.hpp"

namespace {

using ctrl::bench::Figures;
using ctrl::bench::LoadAverage;

constexpr const char* kProgram = "controller_bench";

int ProbeMain(int argc, char** argv) {
    ctrl::bench::ControllerProbeOptions options;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string_view name = argv[i];
        const char* value = argv[i + 1];
        if (ctrl::bench::ParseWorkloadProbeArg(name, value, options.kubeconfig, options.layout))
            continue;
        if (name == "--workers")
            options.workers = std::max(1, std::atoi(value));
        else if (name == "--patch-seconds")
            options.patch_seconds = std::atof(value);
        else if (name == "--patch-concurrency")
            options.patch_concurrency = std::max(1, std::atoi(value));
    }
    return ctrl::bench::RunControllerProbe(options);
}

int Fail(const std::string& message) {
    std::fprintf(stderr, "%s: %s\n", kProgram, message.c_str());
    return 1;
}

double MiB(double bytes) {
    return bytes / (1024.0 * 1024.0);
}

void PrintSyncRow(const Figures& f) {
    const double pods = f.at("pods");
    std::printf("| %.0f | %.2f s | %.2f s | %.1f ms | %.2f s | %.0f us | %.0f | %.1f MiB | %.0f B | %.0f B |\n",
                f.at("workers"), f.at("first_s"), f.at("all_s"), (f.at("all_s") - f.at("first_s")) * 1000,
                f.at("cpu_s"), f.at("cpu_s") / pods * 1e6, f.at("reconciles_at_sync"), MiB(f.at("rss_after")),
                (f.at("rss_after") - f.at("rss_before")) / pods, (f.at("heap_after") - f.at("heap_before")) / pods);
}

struct LoadRun {
    int workers = 1;
    int in_flight = 1;
    std::string load_average;
    Figures figures;
};

void PrintLoadRow(const LoadRun& run) {
    const Figures& f = run.figures;
    std::printf(
        "| %d | %d | %.0f/s (%.0f, %.0f errors) | %.0f/s (%.0f) | %.1f / %.1f | %.1f / %.1f | %.0f | %.2f s / %.2f s | "
        "%s |\n",
        run.workers, run.in_flight, f.at("patches") / f.at("patch_s"), f.at("patches"), f.at("patch_errors"),
        f.at("reconciles") / f.at("reconcile_window_s"), f.at("reconciles"), f.at("send_reconcile_p50_ms"),
        f.at("send_reconcile_p99_ms"), f.at("answer_reconcile_p50_ms"), f.at("answer_reconcile_p99_ms"), f.at("unseen"),
        f.at("load_cpu_s"), f.at("load_loop_cpu_s"), run.load_average.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::string_view(argv[1]) == "--probe")
        return ProbeMain(argc, argv);
    int pods = ctrl::bench::PodsFromEnvironment();
    std::vector<int> workers{1, 4};
    double patch_seconds = 10;
    std::vector<int> patch_concurrency{32, 4};
    std::vector<int> patch_workers{1, 4};
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--pods" && i + 1 < argc)
            pods = std::atoi(argv[++i]);
        else if (arg == "--workers" && i + 1 < argc)
            workers = ctrl::bench::ParseCounts(argv[++i]);
        else if (arg == "--patch-seconds" && i + 1 < argc)
            patch_seconds = std::atof(argv[++i]);
        else if (arg == "--patch-concurrency" && i + 1 < argc)
            patch_concurrency = ctrl::bench::ParseCounts(argv[++i]);
        else if (arg == "--patch-workers" && i + 1 < argc)
            patch_workers = ctrl::bench::ParseCounts(argv[++i]);
        else if (!arg.starts_with("--benchmark_"))
            return Fail("unknown argument " + std::string(arg) +
                        " (flags: --pods N, --workers W[,W...], --patch-seconds S, --patch-concurrency C[,C...], "
                        "--patch-workers W[,W...])");
    }
    if (pods < 1)
        return Fail("the pod count must be >= 1");

    const ctrl::testing::WorkloadOptions workload = ctrl::bench::WorkloadLayout("bench", pods);
    pods = workload.namespaces * workload.pods_per_namespace;
    ctrl::testing::ControlPlane control_plane;
    if (ctrl::Status ready = ctrl::bench::StartWithWorkload(kProgram, control_plane, workload); !ready.Ok())
        return Fail(ready.ToString());
    const std::vector<std::string> common = ctrl::bench::WorkloadProbeArgs(control_plane, workload);
    auto probe = [&common](std::vector<std::string> extra) {
        extra.insert(extra.begin(), common.begin(), common.end());
        return ctrl::bench::RunProbeChild(kProgram, extra);
    };

    const std::string load_before_sync = LoadAverage();
    std::vector<Figures> syncs;
    for (int w : workers) {
        syncs.push_back(probe({"--workers", std::to_string(w)}));
        if (syncs.back().empty())
            return Fail("a probe failed (see above)");
    }
    // Patch loads last: a patch adds a managedFields entry to its pod.
    std::vector<LoadRun> loads;
    for (int w : patch_workers) {
        for (int in_flight : patch_concurrency) {
            if (patch_seconds <= 0)
                break;
            LoadRun run{.workers = w, .in_flight = in_flight, .load_average = LoadAverage(), .figures = {}};
            run.figures = probe({"--workers", std::to_string(w), "--patch-seconds", std::to_string(patch_seconds),
                                 "--patch-concurrency", std::to_string(in_flight)});
            if (run.figures.empty())
                return Fail("a probe failed (see above)");
            loads.push_back(std::move(run));
        }
    }
    const std::string load_after = LoadAverage();
    control_plane.Stop();

    std::printf(
        "\nN = %d pods, a controller for pods (cluster::Cluster + ClusterHost + builder::ControllerFor<api::Pod>, "
        "no-op reconciler) per child process, 1 io thread; load average %s before the first controller, %s at the "
        "end\n",
        pods, load_before_sync.c_str(), load_after.c_str());
    std::printf(
        "| workers | Start to first reconcile | Start to all %d reconciled once | first to last | client CPU | "
        "CPU / pod | reconciles | RSS after | RSS held / pod | heap held / pod |\n",
        pods);
    std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Figures& f : syncs)
        PrintSyncRow(f);
    std::printf(
        "(Start: the host's Run (cache + controller); the first reconcile comes once the cache has synced; warm-up "
        "before it, not counted: TLS connection + discovery of "
        "pods, %.0f ms. Client CPU: user + sys of the whole process until the last pod's first reconcile. RSS "
        "after: the process's whole RSS after the pass (malloc_trim'd); held: less the RSS just before Start.)\n",
        syncs.front().at("warm_s") * 1000);
    if (loads.empty())
        return 0;
    std::printf(
        "\nmerge patches of one annotation, round robin over the pods, for %.0f s, from a direct client on a thread "
        "of its own in the controller's process; each reconcile reads its pod from the cache (GetSharedNow). "
        "Delays in ms to the start of the first reconcile that read the patched pod, median / p99\n",
        patch_seconds);
    std::printf(
        "| workers | patches in flight | patches answered | reconciles | send -> reconcile | answer -> reconcile | "
        "patches never seen | client CPU (process / controller thread) | load average before |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    for (const LoadRun& run : loads)
        PrintLoadRow(run);
    std::printf(
        "(reconciles/s: reconciles from the load's start to the last one, over that time. Process CPU includes "
        "the patcher's thread; the controller thread runs the cache, the controller and the reconciles.)\n");
    return 0;
}
