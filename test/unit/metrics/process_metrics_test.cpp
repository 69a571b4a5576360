#include "ctrl/metrics/process_metrics.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <string>

namespace ctrl::metrics {
namespace {

using ::testing::HasSubstr;

// The value of an unlabelled series in a text exposition, or -1 when absent.
double ValueOf(const std::string& text, const std::string& name) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(name + " ", 0) == 0)
            return std::stod(line.substr(name.size() + 1));
    }
    return -1;
}

TEST(ProcessMetricsTest, ExportsGoCollectorNamesWithPlausibleValues) {
    Registry registry;
    RegisterProcessMetrics(registry);
    // Burn a little CPU so the counter has something to show.
    volatile double sink = 0;
    for (int i = 0; i < 20'000'000; ++i)
        sink = sink + i * 0.5;
    const std::string text = registry.SerializeText();
    EXPECT_THAT(text, HasSubstr("# TYPE process_cpu_seconds_total counter"));
    EXPECT_THAT(text, HasSubstr("# TYPE process_resident_memory_bytes gauge"));
    EXPECT_GE(ValueOf(text, "process_cpu_seconds_total"), 0);
    EXPECT_GT(ValueOf(text, "process_resident_memory_bytes"), 1024 * 1024);
    EXPECT_GT(ValueOf(text, "process_virtual_memory_bytes"), ValueOf(text, "process_resident_memory_bytes"));
    EXPECT_GT(ValueOf(text, "process_virtual_memory_max_bytes"), 0);
    EXPECT_GE(ValueOf(text, "process_open_fds"), 3);
    EXPECT_GE(ValueOf(text, "process_max_fds"), ValueOf(text, "process_open_fds"));
    const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    const double start = ValueOf(text, "process_start_time_seconds");
    EXPECT_GT(start, now - 24 * 3600);  // this test process started recently
    EXPECT_LE(start, now + 1);
}

TEST(ProcessMetricsTest, CpuCounterNeverGoesDownBetweenScrapes) {
    Registry registry;
    RegisterProcessMetrics(registry);
    const double first = ValueOf(registry.SerializeText(), "process_cpu_seconds_total");
    volatile double sink = 0;
    for (int i = 0; i < 20'000'000; ++i)
        sink = sink + i * 0.5;
    const double second = ValueOf(registry.SerializeText(), "process_cpu_seconds_total");
    EXPECT_GE(second, first);
}

}  // namespace
}  // namespace ctrl::metrics
