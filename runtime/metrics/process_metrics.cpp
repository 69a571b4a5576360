#include "ctrl/metrics/process_metrics.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace ctrl::metrics {
namespace {

// The fields of /proc/self/stat the collector needs, in their raw units.
struct ProcStat {
    double cpu_ticks = 0;       // utime + stime
    double start_ticks = 0;     // since boot
    double virtual_bytes = 0;   // vsize
    double resident_pages = 0;  // rss
};

std::string ReadFile(const char* path) {
    std::ifstream in(path);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// /proc/self/stat: "pid (comm) state ppid ...". comm may hold spaces and parentheses, so the
// fields are counted from the last ')'. Field 3 (state) is the first after it.
std::optional<ProcStat> ParseProcStat(std::string_view text) {
    const size_t close = text.rfind(')');
    if (close == std::string_view::npos)
        return std::nullopt;
    std::istringstream fields(std::string(text.substr(close + 1)));
    std::vector<std::string> values;
    for (std::string value; fields >> value;)
        values.push_back(value);
    // values[0] is field 3; field N is values[N - 3].
    auto field = [&](int n) -> std::optional<double> {
        const size_t index = static_cast<size_t>(n - 3);
        if (index >= values.size())
            return std::nullopt;
        unsigned long long parsed = 0;
        const std::string& v = values[index];
        if (std::from_chars(v.data(), v.data() + v.size(), parsed).ec != std::errc())
            return std::nullopt;
        return static_cast<double>(parsed);
    };
    auto utime = field(14), stime = field(15), start = field(22), vsize = field(23), rss = field(24);
    if (!utime || !stime || !start || !vsize || !rss)
        return std::nullopt;
    return ProcStat{*utime + *stime, *start, *vsize, *rss};
}

// The boot time in seconds since the epoch ("btime" in /proc/stat).
std::optional<double> BootTime() {
    std::istringstream in(ReadFile("/proc/stat"));
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("btime ", 0) == 0)
            return std::stod(line.substr(6));
    }
    return std::nullopt;
}

double OpenFds() {
    std::error_code ec;
    double count = 0;
    for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec))
        ++count;
    return count - 1;  // the iterator's own descriptor
}

// A soft rlimit as Go reports it: RLIM_INFINITY is the largest uint64 as a float.
double SoftLimit(int resource) {
    rlimit limit{};
    if (getrlimit(resource, &limit) != 0)
        return -1;
    if (limit.rlim_cur == RLIM_INFINITY)
        return static_cast<double>(std::numeric_limits<uint64_t>::max());
    return static_cast<double>(limit.rlim_cur);
}

// Owns the series and what Collect needs between scrapes.
class ProcessCollector {
  public:
    explicit ProcessCollector(Registry& registry)
        : cpu_(registry.AddCounter("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", {})
                   .WithLabelValues({})),
          resident_(registry.AddGauge("process_resident_memory_bytes", "Resident memory size in bytes.", {})
                        .WithLabelValues({})),
          virtual_(registry.AddGauge("process_virtual_memory_bytes", "Virtual memory size in bytes.", {})
                       .WithLabelValues({})),
          virtual_max_(registry
                           .AddGauge("process_virtual_memory_max_bytes",
                                     "Maximum amount of virtual memory available in bytes.", {})
                           .WithLabelValues({})),
          open_fds_(registry.AddGauge("process_open_fds", "Number of open file descriptors.", {}).WithLabelValues({})),
          max_fds_(
              registry.AddGauge("process_max_fds", "Maximum number of open file descriptors.", {}).WithLabelValues({})),
          start_time_(
              registry
                  .AddGauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", {})
                  .WithLabelValues({})) {}

    void Collect() {
        std::lock_guard lock(mu_);
        if (auto stat = ParseProcStat(ReadFile("/proc/self/stat"))) {
            const double cpu_seconds = stat->cpu_ticks / ticks_per_second_;
            if (cpu_seconds > cpu_reported_) {
                cpu_.Inc(cpu_seconds - cpu_reported_);
                cpu_reported_ = cpu_seconds;
            }
            resident_.Set(stat->resident_pages * page_size_);
            virtual_.Set(stat->virtual_bytes);
            if (boot_time_)
                start_time_.Set(*boot_time_ + stat->start_ticks / ticks_per_second_);
        }
        open_fds_.Set(OpenFds());
        max_fds_.Set(SoftLimit(RLIMIT_NOFILE));
        virtual_max_.Set(SoftLimit(RLIMIT_AS));
    }

  private:
    Counter cpu_;
    Gauge resident_, virtual_, virtual_max_, open_fds_, max_fds_, start_time_;
    std::mutex mu_;
    double cpu_reported_ = 0;  // what cpu_ got from this collector: a counter only goes up by deltas
    const double ticks_per_second_ = static_cast<double>(sysconf(_SC_CLK_TCK));
    const double page_size_ = static_cast<double>(sysconf(_SC_PAGESIZE));
    const std::optional<double> boot_time_ = BootTime();
};

}  // namespace

void RegisterProcessMetrics(Registry& registry) {
    auto collector = std::make_shared<ProcessCollector>(registry);
    registry.AddCollectHook([collector] { collector->Collect(); });
}

}  // namespace ctrl::metrics
