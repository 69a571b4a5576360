// The informer cache against a real control plane (issue 6, acceptance 7): N realistic pods (default
// 10,000) made with the workload tool, then for a cache over pods: the time from Start to synced,
// the client's CPU seconds during the sync, the RSS it holds per pod and per byte of the JSON of
// the objects it holds, with managedFields stripped (the default transform) and kept (no
// transform); then watch events/s under a merge-patch load and the delay from a patch's answer to
// its event in the cache.
//
// Each cache runs in a child process of its own (this program with --probe), so its RSS delta
// holds neither the workload's creation nor another cache. The probes, in this order: stripped,
// kept, then one per patch load (32 and 4 patches in flight by default), each syncing a stripped
// cache anew first (a patch adds a managedFields entry to its pod, so the loads come last).
// $CTRL_BENCH_PATCH_TIMES=<file> writes each patch's times (of the last load).
//
//   cache_sync_bench [--pods N] [--patch-seconds S (10)] [--patch-concurrency C[,C...] (32,4)]
// N also comes from $CTRL_BENCH_PODS.
// Flags of google-benchmark (--benchmark_*), which hack/bench.sh may pass, are ignored.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "test/bench/bench_process.hpp"
#include "test/bench/bench_workload.hpp"
#include "test/bench/cache_sync_probe.hpp"
#include "test/support/control_plane.hpp"
#include "test/support/workload.hpp"

namespace {

using ctrl::bench::Figures;
using ctrl::bench::LoadAverage;

int ProbeMain(int argc, char** argv) {
    ctrl::bench::ProbeOptions options;
    ctrl::testing::WorkloadOptions layout;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string_view name = argv[i];
        const char* value = argv[i + 1];
        if (ctrl::bench::ParseWorkloadProbeArg(name, value, options.kubeconfig, layout))
            continue;
        if (name == "--keep-managed-fields")
            options.keep_managed_fields = std::string_view(value) == "true";
        else if (name == "--patch-seconds")
            options.patch_seconds = std::atof(value);
        else if (name == "--patch-concurrency")
            options.patch_concurrency = std::max(1, std::atoi(value));
    }
    options.prefix = layout.prefix;
    options.namespaces = layout.namespaces;
    options.pods_per_namespace = layout.pods_per_namespace;
    return ctrl::bench::RunProbe(options);
}

double PerPod(const Figures& f, const char* key) {
    return f.at(key) / f.at("pods");
}

void PrintSyncRow(const char* name, const Figures& f) {
    std::printf("| %s | %.2f s | %.2f s | %.0f B | %.0f B | %.0f B | %.0f B | **%.2f** | %.2f |\n", name,
                f.at("sync_s"), f.at("cpu_s"), PerPod(f, "rss_held"), PerPod(f, "heap_held"), PerPod(f, "json_bytes"),
                PerPod(f, "encoded_bytes"), f.at("rss_held") / f.at("json_bytes"),
                f.at("heap_held") / f.at("json_bytes"));
}

int Fail(const std::string& message) {
    std::fprintf(stderr, "cache_sync_bench: %s\n", message.c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::string_view(argv[1]) == "--probe")
        return ProbeMain(argc, argv);
    int pods = ctrl::bench::PodsFromEnvironment();
    double patch_seconds = 10;
    std::vector<int> patch_concurrency{32, 4};
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--pods" && i + 1 < argc)
            pods = std::atoi(argv[++i]);
        else if (arg == "--patch-seconds" && i + 1 < argc)
            patch_seconds = std::atof(argv[++i]);
        else if (arg == "--patch-concurrency" && i + 1 < argc)
            patch_concurrency = ctrl::bench::ParseCounts(argv[++i]);
        else if (!arg.starts_with("--benchmark_"))
            return Fail("unknown argument " + std::string(arg) +
                        " (flags: --pods N, --patch-seconds S, --patch-concurrency C[,C...])");
    }
    if (pods < 1)
        return Fail("the pod count must be >= 1");

    const ctrl::testing::WorkloadOptions workload = ctrl::bench::WorkloadLayout("bench", pods);
    pods = workload.namespaces * workload.pods_per_namespace;
    ctrl::testing::ControlPlane control_plane;
    if (ctrl::Status ready = ctrl::bench::StartWithWorkload("cache_sync_bench", control_plane, workload); !ready.Ok())
        return Fail(ready.ToString());

    const std::vector<std::string> common = ctrl::bench::WorkloadProbeArgs(control_plane, workload);
    auto with = [&common](std::vector<std::string> extra) {
        extra.insert(extra.begin(), common.begin(), common.end());
        return extra;
    };
    const std::string load_before_sync = LoadAverage();
    const Figures stripped = ctrl::bench::RunProbeChild("cache_sync_bench", with({"--keep-managed-fields", "false"}));
    const Figures kept = ctrl::bench::RunProbeChild("cache_sync_bench", with({"--keep-managed-fields", "true"}));
    // One probe per patch load, each synced anew (more rows of the stripped cache).
    std::vector<std::pair<std::string, Figures>> loads;
    for (int in_flight : patch_concurrency) {
        const std::string load = LoadAverage();
        loads.emplace_back(load, ctrl::bench::RunProbeChild("cache_sync_bench",
                                                            with({"--keep-managed-fields", "false", "--patch-seconds",
                                                                  std::to_string(patch_seconds), "--patch-concurrency",
                                                                  std::to_string(in_flight)})));
        if (loads.back().second.empty())
            return Fail("a probe failed (see above)");
    }
    const std::string load_after = LoadAverage();
    control_plane.Stop();
    if (stripped.empty() || kept.empty())
        return Fail("a probe failed (see above)");

    std::printf(
        "\nN = %d pods, one cache per child process, 1 io thread; load average %s before the syncs, "
        "%s at the end\n",
        pods, load_before_sync.c_str(), load_after.c_str());
    std::printf(
        "| cache over pods | Start to synced | client CPU | RSS / pod | heap / pod | JSON / pod | "
        "compact form / pod | RSS / JSON byte | heap / JSON byte |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    PrintSyncRow("managedFields stripped", stripped);
    PrintSyncRow("managedFields kept (no transform)", kept);
    for (std::size_t i = 0; i < loads.size(); ++i) {
        const std::string name = "stripped, before patch load " + std::to_string(i + 1);
        PrintSyncRow(name.c_str(), loads[i].second);
    }
    std::printf("(warm-up before each baseline, not counted: TLS connection + discovery of pods, %.0f ms)\n",
                stripped.at("warm_s") * 1000);
    const double goal = stripped.at("rss_held") / stripped.at("json_bytes");
    std::printf("RSS held per JSON byte (stripped): %.2f (goal <= 1.5: %s)\n", goal, goal <= 1.5 ? "met" : "NOT met");

    std::printf(
        "\nmerge patches of one annotation, round robin over the pods, for %.0f s; delays in ms, median / p99\n",
        patch_seconds);
    std::printf(
        "| patch load | patches answered | update events in the cache | answer -> event (cache) | "
        "answer -> event (raw watch) | send -> event (cache) | cache re-watches | client CPU | load average before "
        "|\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    for (std::size_t i = 0; i < loads.size(); ++i) {
        const Figures& f = loads[i].second;
        std::printf(
            "| %zu: %d in flight | %.0f/s (%.0f, %.0f errors) | %.0f/s (%.0f, %.0f missed) | %.1f / %.1f | "
            "%.1f / %.1f (%.0f missed) | %.1f / %.1f | %.0f | %.2f s | %s |\n",
            i + 1, patch_concurrency[i], f.at("patches") / f.at("patch_s"), f.at("patches"), f.at("patch_errors"),
            f.at("events") / f.at("events_s"), f.at("events"), f.at("missing"), f.at("answer_event_p50_ms"),
            f.at("answer_event_p99_ms"), f.at("answer_raw_p50_ms"), f.at("answer_raw_p99_ms"), f.at("raw_missing"),
            f.at("send_event_p50_ms"), f.at("send_event_p99_ms"), f.at("rewatches"), f.at("load_cpu_s"),
            loads[i].first.c_str());
    }
    std::printf(
        "(events/s: update events / time from the load's start to the last event. The raw watch is a plain "
        "watch on its own connection and thread; the cache re-watches if the server ends its watch, the raw "
        "watch does not. Client CPU: cache + patcher + raw watch during the load.)\n");
    return 0;
}
