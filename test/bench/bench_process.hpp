#pragma once

// What the benchmarks that measure against a real control plane share: each measurement runs in
// a child process of its own (this program re-run with --probe), which prints one line
// "RESULT key=value ..." that the parent reads; the child's CPU and memory figures, its io
// thread, the quantiles of its delays, and the machine's load average for the printed tables.

#include <pthread.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "test/support/io_loop.hpp"

namespace ctrl::bench {

// The figures of one probe, by key.
using Figures = std::map<std::string, double>;

// Runs this program (/proc/self/exe) with "--probe" followed by args, and returns the figures of
// the "RESULT ..." line it printed on stdout; empty (and a message naming program on stderr) when
// it failed. The child's stderr is this process's.
Figures RunProbeChild(const char* program, const std::vector<std::string>& args);

// The figures of a "RESULT ..." line found in output; empty when there is none.
Figures ParseProbeResult(const std::string& output);

// /proc/loadavg's 1, 5 and 15 minute averages, "1.20 0.90 0.70".
std::string LoadAverage();

// User + system CPU seconds of this process (every thread).
double CpuSeconds();

// This process's memory after handing free memory back to the kernel (malloc_trim).
struct Memory {
    std::size_t rss = 0;
    std::size_t heap = 0;  // malloc's bytes in use, every arena (no fragmentation, no free pages)
};
Memory SettledMemory();

// The p-th quantile (0..1) of nanosecond values, in milliseconds; 0 when empty.
double QuantileMs(std::vector<int64_t> values, double p);

// "32,4" -> {32, 4}; each at least 1.
std::vector<int> ParseCounts(const std::string& text);

// Polls done every 10 ms until it holds or timeout passes.
void WaitUntil(std::chrono::steady_clock::duration timeout, const std::function<bool()>& done);

// The test support's IoLoop, which can also say how much CPU its thread has used.
class Loop : public ctrl::testing::IoLoop {
  public:
    // CPU seconds the loop's thread has used so far (before Stop).
    double ThreadCpuSeconds();
};

}  // namespace ctrl::bench
