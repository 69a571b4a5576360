// The manager against a real control plane (issue 14, acceptance 8): N realistic pods (default
// 10,000) made with the workload tool, then, in a child process, a manager as an operator's main()
// makes it (manager::New: default registry and threads, metrics and probe servers on
// 127.0.0.1:0, leader election off) with one controller for pods (builder::ControllerFor, no-op
// reconciler). Once every pod was reconciled once, the idle process is measured for --idle-seconds:
// its RSS, threads, CPU seconds per second of wall time and context switches (wakeups) per second;
// then it scrapes its own /metrics over a socket (plain and gzip: size and time).
// Figures are printed, not asserted.
//
//   manager_bench [--pods N] [--idle-seconds S (10)] [--runs R (1)]
// N also comes from $CTRL_BENCH_PODS. Flags of google-benchmark (--benchmark_*) are ignored.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "test/bench/bench_process.hpp"
#include "test/bench/bench_workload.hpp"
#include "test/bench/manager_probe.hpp"
#include "test/support/control_plane.hpp"

namespace {

using ctrl::bench::Figures;

constexpr const char* kProgram = "manager_bench";

int ProbeMain(int argc, char** argv) {
    ctrl::bench::ManagerProbeOptions options;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string_view name = argv[i];
        const char* value = argv[i + 1];
        if (ctrl::bench::ParseWorkloadProbeArg(name, value, options.kubeconfig, options.layout))
            continue;
        if (name == "--idle-seconds")
            options.idle_seconds = std::max(0.1, std::atof(value));
    }
    return ctrl::bench::RunManagerProbe(options);
}

int Fail(const std::string& message) {
    std::fprintf(stderr, "%s: %s\n", kProgram, message.c_str());
    return 1;
}

double MiB(double bytes) {
    return bytes / (1024.0 * 1024.0);
}

void PrintRow(const Figures& f, const std::string& load_average) {
    const double idle = f.at("idle_s");
    std::printf(
        "| %.0f | %.2f s | %.1f MiB | %.1f MiB | %.1f MiB | %.1f MiB | %.0f | %.3f ms/s (%.4f%%) | %.1f/s | %.0f | "
        "%.0f KiB, %.0f "
        "samples, %.1f ms | %.0f KiB, %.1f ms | %s |\n",
        f.at("pods"), f.at("all_s"), MiB(f.at("rss")), MiB(f.at("rss_trimmed")), MiB(f.at("heap")),
        MiB(f.at("rss_peak")), f.at("threads"), f.at("idle_cpu_s") / idle * 1000, f.at("idle_cpu_s") / idle * 100,
        f.at("idle_switches") / idle, f.at("idle_reconciles"), f.at("scrape_bytes") / 1024, f.at("scrape_samples"),
        f.at("scrape_s") * 1000, f.at("scrape_gzip_bytes") / 1024, f.at("scrape_gzip_s") * 1000, load_average.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::string_view(argv[1]) == "--probe")
        return ProbeMain(argc, argv);
    int pods = ctrl::bench::PodsFromEnvironment();
    double idle_seconds = 10;
    int runs = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--pods" && i + 1 < argc)
            pods = std::atoi(argv[++i]);
        else if (arg == "--idle-seconds" && i + 1 < argc)
            idle_seconds = std::atof(argv[++i]);
        else if (arg == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (!arg.starts_with("--benchmark_"))
            return Fail("unknown argument " + std::string(arg) + " (flags: --pods N, --idle-seconds S, --runs R)");
    }
    if (pods < 1 || idle_seconds <= 0)
        return Fail("the pod count and the idle seconds must be positive");

    const ctrl::testing::WorkloadOptions workload = ctrl::bench::WorkloadLayout("bench", pods);
    pods = workload.namespaces * workload.pods_per_namespace;
    ctrl::testing::ControlPlane control_plane;
    if (ctrl::Status ready = ctrl::bench::StartWithWorkload(kProgram, control_plane, workload); !ready.Ok())
        return Fail(ready.ToString());
    std::vector<std::string> args = ctrl::bench::WorkloadProbeArgs(control_plane, workload);
    args.push_back("--idle-seconds");
    args.push_back(std::to_string(idle_seconds));

    std::vector<Figures> results;
    std::vector<std::string> load_averages;
    for (int run = 0; run < runs; ++run) {
        load_averages.push_back(ctrl::bench::LoadAverage());
        results.push_back(ctrl::bench::RunProbeChild(kProgram, args));
        if (results.back().empty())
            return Fail("a probe failed (see above)");
    }
    control_plane.Stop();

    std::printf(
        "\nN = %d pods, one manager per child process (manager::New: default registry, %.0f threads, metrics and "
        "probes on 127.0.0.1:0, no leader election) with one controller for pods (no-op reconciler); idle for "
        "%.0f s after every pod was reconciled once\n",
        pods, results.front().at("threads_option"), idle_seconds);
    std::printf(
        "| pods | Start to all reconciled | idle RSS | RSS trimmed | heap in use | RSS peak | threads | idle CPU | "
        "wakeups | "
        "reconciles while idle | /metrics | /metrics gzip | load average before |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (std::size_t i = 0; i < results.size(); ++i)
        PrintRow(results[i], load_averages[i]);
    std::printf(
        "(idle RSS: /proc/self/statm at the end of the idle window, as the kernel counts it; trimmed: after "
        "malloc_trim, after the scrapes; heap in use: malloc's bytes in use then (every arena); peak: VmHWM. threads: "
        "the whole process: the manager's io threads, the "
        "thread blocked in Start (an operator's main) and the bench's main thread. idle CPU: user + sys of the process "
        "(getrusage) over the window, per second "
        "of wall time, and as a share of one core. wakeups: voluntary + involuntary context switches of every "
        "thread per second. /metrics: one GET over a fresh loopback connection, connect to last byte, after the "
        "idle window.)\n");
    return 0;
}
