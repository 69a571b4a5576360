#pragma once

// One measured cache for cache_sync_bench, run in a process of its own so that its RSS figures
// hold nothing of the workload's creation or of another cache.

#include <map>
#include <ostream>
#include <string>
#include <thread>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "runtime/cache/informer.hpp"
#include "runtime/core/status.hpp"
#include "runtime/rest/config.hpp"

namespace ctrl::bench {

// What the probe measures and against which cluster.
struct ProbeOptions {
    std::string kubeconfig{};
    // The pods the cluster holds (the workload's), laid out as WorkloadOptions lays them.
    std::string prefix{};
    int namespaces = 0;
    int pods_per_namespace = 0;
    // false: the cache's default transform (managedFields stripped); true: no transform.
    bool keep_managed_fields = false;
    // Seconds of patch load after the sync; 0: none.
    double patch_seconds = 0;
    // Merge patches in flight during the load.
    int patch_concurrency = 32;
};

// Starts a cache over pods, syncs it and measures; then, when asked, runs the patch load. Prints
// one line "RESULT key=value ..." on stdout (ParseProbeResult reads it) and returns the exit code.
int RunProbe(const ProbeOptions& options);

// Merge-patches the workload's pods for options.patch_seconds through a direct client of its own
// while an event handler on informer (synced, over those pods) notes when each patch comes back as
// an update; a raw watch on a connection and thread of its own notes the same, to tell the server's
// share of the delay from the cache's. Appends " key=value" figures to out.
Status RunPatchLoad(const rest::Config& config, cache::Informer& informer, const ProbeOptions& options,
                    std::ostream& out);

// User + system CPU seconds of this process (every thread).
double CpuSeconds();

// An io_context run by one thread of its own until Stop (or destruction).
class Loop {
  public:
    Loop() : thread_([this] { io_.run(); }) {}
    ~Loop() { Stop(); }
    Loop(const Loop&) = delete;
    Loop& operator=(const Loop&) = delete;
    void Stop() {
        if (!thread_.joinable())
            return;
        work_.reset();
        io_.stop();
        thread_.join();
    }
    boost::asio::any_io_executor Executor() { return io_.get_executor(); }

  private:
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ = boost::asio::make_work_guard(io_);
    std::thread thread_;
};

// The figures of a "RESULT ..." line found in output; empty when there is none.
std::map<std::string, double> ParseProbeResult(const std::string& output);

}  // namespace ctrl::bench
