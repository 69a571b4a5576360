#include "test/bench/manager_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "ctrl/api/pod.hpp"
#include "ctrl/builder/builder.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/process_stats.hpp"
#include "test/bench/reconcile_timer.hpp"

namespace ctrl::bench {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

int Fail(const std::string& message) {
    std::fprintf(stderr, "manager_bench probe: %s\n", message.c_str());
    return 1;
}

// Lines of a Prometheus text body that are samples (not # HELP / # TYPE).
int Samples(const std::string& body) {
    int samples = 0;
    for (std::size_t at = 0; at < body.size();) {
        const std::size_t end = std::min(body.find('\n', at), body.size());
        samples += end > at && body[at] != '#' ? 1 : 0;
        at = end + 1;
    }
    return samples;
}

// Scrapes /metrics of the manager twice (plain, then gzip) and appends the figures to out.
Status MeasureScrape(const manager::Manager& mgr, std::ostream& out) {
    const int port = PortOf(mgr.MetricsURL());
    const HttpGetResult plain = HttpGet(port, "/metrics", false);
    const HttpGetResult gzip = HttpGet(port, "/metrics", true);
    if (plain.status != 200 || gzip.status != 200)
        return InternalError("GET " + mgr.MetricsURL() + "/metrics answered " + std::to_string(plain.status) + " and " +
                             std::to_string(gzip.status) + " (gzip); negative: chunked");
    out << " scrape_bytes=" << plain.body_bytes << " scrape_s=" << plain.seconds
        << " scrape_samples=" << Samples(plain.body) << " scrape_gzip_bytes=" << gzip.body_bytes
        << " scrape_gzip_s=" << gzip.seconds << " scrape_gzip=" << (gzip.gzip ? 1 : 0);
    return OkStatus();
}

}  // namespace

int RunManagerProbe(const ManagerProbeOptions& options) {
    const Clock::time_point origin = Clock::now();
    rest::KubeconfigOptions kubeconfig;
    kubeconfig.explicit_path = options.kubeconfig;
    StatusOr<rest::Config> config = rest::LoadKubeconfig(kubeconfig);
    if (!config.Ok())
        return Fail("kubeconfig: " + config.GetStatus().ToString());

    // As an operator's main() makes it: the default registry, scheme, cache and threads.
    manager::Options manager_options;
    manager_options.metrics.bind_address = "127.0.0.1:0";
    manager_options.health_probe_bind_address = "127.0.0.1:0";
    StatusOr<std::unique_ptr<manager::Manager>> made = manager::New(*config, manager_options);
    if (!made.Ok())
        return Fail("manager: " + made.GetStatus().ToString());
    std::unique_ptr<manager::Manager> mgr = std::move(made).Value();
    auto timer = std::make_shared<ReconcileTimer>(options.layout, origin, nullptr, nullptr);
    if (Status built = builder::ControllerFor<api::Pod>(*mgr).Complete(timer); !built.Ok())
        return Fail("controller: " + built.ToString());

    std::ostringstream out;
    out.precision(15);
    const double cpu_before = CpuSeconds();
    const auto start = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - origin).count();
    Context stop = Context::WithCancel(Context::Background());
    std::future<Status> done = std::async(std::launch::async, [&mgr, stop] { return mgr->Start(stop); });
    if (timer->AllSeen().wait_for(600s) != std::future_status::ready) {
        stop.Cancel();
        return Fail(std::to_string(timer->PodsSeen()) + " of " + std::to_string(timer->Pods()) +
                    " pods reconciled after 600 s");
    }
    const double sync_cpu = CpuSeconds() - cpu_before;
    out << "RESULT pods=" << timer->Pods() << " threads_option=" << manager_options.threads
        << " all_s=" << static_cast<double>(timer->LastFirstReconcileAt() - start) / 1e9 << " sync_cpu_s=" << sync_cpu
        << " strangers=" << timer->Strangers();

    // Idle: nothing changes in the cluster; let the last reconciles and requests settle first.
    std::this_thread::sleep_for(2s);
    const int64_t reconciles_before = timer->Reconciles();
    const ProcessSnapshot idle_start = SnapshotProcess();
    const double idle_cpu_before = CpuSeconds();
    const Clock::time_point idle_wall_start = Clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(options.idle_seconds));
    const double idle_cpu = CpuSeconds() - idle_cpu_before;
    const double idle_wall = std::chrono::duration<double>(Clock::now() - idle_wall_start).count();
    const ProcessSnapshot idle_end = SnapshotProcess();
    out << " idle_s=" << idle_wall << " idle_cpu_s=" << idle_cpu
        << " idle_switches=" << idle_end.context_switches - idle_start.context_switches
        << " idle_reconciles=" << timer->Reconciles() - reconciles_before << " threads=" << idle_end.threads
        << " rss=" << idle_end.rss << " rss_peak=" << idle_end.rss_peak;

    const Status scraped = MeasureScrape(*mgr, out);
    const Memory settled = SettledMemory();  // after the figures above: it trims the heap
    out << " rss_trimmed=" << settled.rss << " heap=" << settled.heap;

    stop.Cancel();
    if (done.wait_for(60s) != std::future_status::ready)
        return Fail("the manager did not stop within 60 s");
    if (Status ran = done.get(); !ran.Ok())
        std::fprintf(stderr, "manager_bench probe: the manager stopped with %s\n", ran.ToString().c_str());
    if (!scraped.Ok())
        return Fail("scrape: " + scraped.ToString());
    std::printf("%s\n", out.str().c_str());
    std::fflush(stdout);
    return 0;
}

}  // namespace ctrl::bench
