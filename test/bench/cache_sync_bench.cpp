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
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "runtime/core/run_sync.hpp"
#include "runtime/rest/kubeconfig.hpp"
#include "test/bench/cache_sync_probe.hpp"
#include "test/support/control_plane.hpp"
#include "test/support/workload.hpp"

namespace {

using Figures = std::map<std::string, double>;

constexpr int kDefaultPods = 10000;
constexpr int kMaxNamespaces = 20;

std::string LoadAverage() {
    std::ifstream file("/proc/loadavg");
    std::string one, five, fifteen;
    file >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

// Runs this program as a probe and returns the figures it printed (empty when it failed).
Figures RunProbeChild(const char* self, const std::vector<std::string>& args) {
    std::fflush(stdout);
    int out[2];
    if (pipe(out) != 0)
        return {};
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        close(out[0]);
        close(out[1]);
        std::vector<char*> argv{const_cast<char*>(self), const_cast<char*>("--probe")};
        for (const std::string& arg : args)
            argv.push_back(const_cast<char*>(arg.c_str()));
        argv.push_back(nullptr);
        execv("/proc/self/exe", argv.data());
        _exit(127);
    }
    close(out[1]);
    std::string output;
    char buffer[4096];
    for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;)
        output.append(buffer, static_cast<std::size_t>(n));
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "cache_sync_bench: a probe failed (status %d)\n", status);
        return {};
    }
    return ctrl::bench::ParseProbeResult(output);
}

int ProbeMain(int argc, char** argv) {
    ctrl::bench::ProbeOptions options;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string_view name = argv[i];
        const char* value = argv[i + 1];
        if (name == "--kubeconfig")
            options.kubeconfig = value;
        else if (name == "--prefix")
            options.prefix = value;
        else if (name == "--namespaces")
            options.namespaces = std::atoi(value);
        else if (name == "--pods-per-namespace")
            options.pods_per_namespace = std::atoi(value);
        else if (name == "--keep-managed-fields")
            options.keep_managed_fields = std::string_view(value) == "true";
        else if (name == "--patch-seconds")
            options.patch_seconds = std::atof(value);
        else if (name == "--patch-concurrency")
            options.patch_concurrency = std::max(1, std::atoi(value));
    }
    return ctrl::bench::RunProbe(options);
}

// "32,4" -> {32, 4}; each at least 1.
std::vector<int> ParseCounts(const std::string& text) {
    std::vector<int> counts;
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        counts.push_back(std::max(1, std::atoi(text.substr(at, comma - at).c_str())));
        at = comma + 1;
    }
    return counts;
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
    int pods = kDefaultPods;
    if (const char* env = std::getenv("CTRL_BENCH_PODS"); env != nullptr && *env != '\0')
        pods = std::atoi(env);
    double patch_seconds = 10;
    std::vector<int> patch_concurrency{32, 4};
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--pods" && i + 1 < argc)
            pods = std::atoi(argv[++i]);
        else if (arg == "--patch-seconds" && i + 1 < argc)
            patch_seconds = std::atof(argv[++i]);
        else if (arg == "--patch-concurrency" && i + 1 < argc)
            patch_concurrency = ParseCounts(argv[++i]);
        else if (!arg.starts_with("--benchmark_"))
            return Fail("unknown argument " + std::string(arg) +
                        " (flags: --pods N, --patch-seconds S, --patch-concurrency C[,C...])");
    }
    if (pods < 1)
        return Fail("the pod count must be >= 1");

    ctrl::testing::WorkloadOptions workload;
    workload.prefix = "bench";
    workload.namespaces = std::min(kMaxNamespaces, pods);
    workload.pods_per_namespace = (pods + workload.namespaces - 1) / workload.namespaces;
    workload.concurrency = 16;
    pods = workload.namespaces * workload.pods_per_namespace;

    ctrl::testing::ControlPlane control_plane;
    if (ctrl::Status started = control_plane.Start(); !started.Ok())
        return Fail("control plane: " + started.ToString());
    std::printf("cache_sync_bench: kube-apiserver %s + etcd %s on loopback, sharing the cores with this client\n",
                control_plane.Version().c_str(), control_plane.EtcdVersion().c_str());
    {
        ctrl::rest::KubeconfigOptions kubeconfig;
        kubeconfig.explicit_path = control_plane.KubeconfigPath();
        ctrl::StatusOr<ctrl::rest::Config> config = ctrl::rest::LoadKubeconfig(kubeconfig);
        if (!config.Ok())
            return Fail("kubeconfig: " + config.GetStatus().ToString());
        boost::asio::io_context io;
        auto client = ctrl::client::New(*config, io.get_executor());
        if (!client.Ok())
            return Fail("client: " + client.GetStatus().ToString());
        std::printf("creating %d pods in %d namespaces, %d in flight (load average %s)\n", pods, workload.namespaces,
                    workload.concurrency, LoadAverage().c_str());
        std::fflush(stdout);
        ctrl::StatusOr<ctrl::testing::WorkloadReport> created =
            ctrl::RunSync(io, ctrl::testing::CreateWorkload(**client, workload, ctrl::Context::Background()));
        if (!created.Ok())
            return Fail("workload: " + created.GetStatus().ToString());
        std::printf("created %d pods in %.1f s: %.0f pods/s\n", created->pods,
                    static_cast<double>(created->took.count()) / 1000, created->PodsPerSecond());
    }

    const std::vector<std::string> common{"--kubeconfig",
                                          control_plane.KubeconfigPath(),
                                          "--prefix",
                                          workload.prefix,
                                          "--namespaces",
                                          std::to_string(workload.namespaces),
                                          "--pods-per-namespace",
                                          std::to_string(workload.pods_per_namespace)};
    auto with = [&common](std::vector<std::string> extra) {
        extra.insert(extra.begin(), common.begin(), common.end());
        return extra;
    };
    const std::string load_before_sync = LoadAverage();
    const Figures stripped = RunProbeChild(argv[0], with({"--keep-managed-fields", "false"}));
    const Figures kept = RunProbeChild(argv[0], with({"--keep-managed-fields", "true"}));
    // One probe per patch load, each synced anew (more rows of the stripped cache).
    std::vector<std::pair<std::string, Figures>> loads;
    for (int in_flight : patch_concurrency) {
        const std::string load = LoadAverage();
        loads.emplace_back(load, RunProbeChild(argv[0], with({"--keep-managed-fields", "false", "--patch-seconds",
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
