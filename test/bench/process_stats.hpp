#pragma once

// What /proc says of this process while it idles (manager_bench): its threads, their context
// switches, its memory as the kernel counts it (no malloc_trim), and a timed HTTP GET on loopback.

#include <cstddef>
#include <cstdint>
#include <string>

namespace ctrl::bench {

// /proc/self/status and statm, read as they are (nothing trimmed first).
struct ProcessSnapshot {
    int threads = 0;
    std::size_t rss = 0;       // resident bytes (statm)
    std::size_t rss_peak = 0;  // VmHWM
    // Voluntary + involuntary context switches of every thread alive now (/proc/self/task/*/status):
    // each is a wakeup after a sleep or a preemption.
    int64_t context_switches = 0;
};
ProcessSnapshot SnapshotProcess();

// A GET of `path` on http://127.0.0.1:<port> over a plain socket, Connection: close.
struct HttpGetResult {
    int status = 0;              // 0: no answer
    std::size_t body_bytes = 0;  // as sent (compressed when gzip was asked and given)
    std::string body;
    bool gzip = false;   // Content-Encoding: gzip
    double seconds = 0;  // connect to the last byte
};
HttpGetResult HttpGet(int port, const std::string& path, bool accept_gzip);

// The port of "http://127.0.0.1:8080"; 0 when there is none.
int PortOf(const std::string& url);

}  // namespace ctrl::bench
