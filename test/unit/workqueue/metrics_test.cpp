#include <chrono>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "ctrl/metrics/registry.hpp"
#include "ctrl/workqueue/queue.hpp"
#include "test/unit/workqueue/test_support.hpp"

namespace ctrl::workqueue {
namespace {

using namespace std::chrono_literals;
using testing::Eventually;
using testing::IoThreads;

constexpr char kLabels[] = R"(controller="orders",name="orders")";

// The value of the sample `series` (name{labels}) in a text exposition; nullopt if absent.
std::optional<double> Sample(const std::string& text, const std::string& series) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.size() > series.size() && line.compare(0, series.size(), series) == 0 && line[series.size()] == ' ')
            return std::stod(line.substr(series.size() + 1));
    }
    return std::nullopt;
}

std::string Series(const std::string& name, const std::string& extra_labels = "") {
    return name + "{" + kLabels + extra_labels + "}";
}

class QueueMetricsTest : public ::testing::Test {
  protected:
    std::optional<double> Scrape(const std::string& series) const { return Sample(registry_.SerializeText(), series); }

    metrics::Registry registry_;
    IoThreads io_;
    Queue<std::string> queue_{io_.Executor(),
                              {.name = "orders", .registry = &registry_, .metrics_update_period = 50ms}};
};

TEST_F(QueueMetricsTest, ReportsControllerRuntimesSeriesAfterAKnownSequence) {
    queue_.Add("a");
    queue_.Add("b");
    queue_.Add("a");  // duplicate: not an add
    EXPECT_EQ(Scrape(Series("workqueue_adds_total")), 2);
    EXPECT_EQ(Scrape(R"(workqueue_depth{controller="orders",name="orders",priority=""})"), 2);

    ASSERT_EQ(queue_.Get(), "a");
    queue_.Done("a");
    queue_.AddAfter("c", 0s);    // a retry, added at once
    queue_.AddRateLimited("d");  // a retry after 5 ms
    ASSERT_TRUE(Eventually([this] { return queue_.Len() == 3; }));
    EXPECT_EQ(Scrape(Series("workqueue_adds_total")), 4);
    EXPECT_EQ(Scrape(Series("workqueue_retries_total")), 2);
    EXPECT_EQ(Scrape(R"(workqueue_depth{controller="orders",name="orders",priority=""})"), 3);
    EXPECT_EQ(Scrape(Series("workqueue_queue_duration_seconds_count")), 1);
    EXPECT_EQ(Scrape(Series("workqueue_work_duration_seconds_count")), 1);

    ASSERT_EQ(queue_.Get(), "b");  // in progress until Done
    ASSERT_TRUE(Eventually([this] { return Scrape(Series("workqueue_longest_running_processor_seconds")) >= 0.1; }));
    EXPECT_GE(Scrape(Series("workqueue_unfinished_work_seconds")), 0.1);
    ASSERT_EQ(queue_.Get(), "c");
    // Once a refresh has seen both keys in progress, the unfinished work is the sum of both ages.
    double longest = 0;
    double unfinished = 0;
    ASSERT_TRUE(Eventually([&] {
        unfinished = Scrape(Series("workqueue_unfinished_work_seconds")).value_or(0);
        longest = Scrape(Series("workqueue_longest_running_processor_seconds")).value_or(0);
        return unfinished > longest;
    })) << unfinished
        << " <= " << longest;
    EXPECT_LE(unfinished, 2 * longest);

    queue_.Done("b");
    queue_.Done("c");
    ASSERT_TRUE(Eventually([this] { return Scrape(Series("workqueue_unfinished_work_seconds")) == 0; }));
    EXPECT_EQ(Scrape(Series("workqueue_longest_running_processor_seconds")), 0);
    EXPECT_EQ(Scrape(Series("workqueue_queue_duration_seconds_count")), 3);
    EXPECT_EQ(Scrape(Series("workqueue_work_duration_seconds_count")), 3);
    EXPECT_GE(Scrape(Series("workqueue_work_duration_seconds_sum")), 0.1);
    EXPECT_EQ(Scrape(R"(workqueue_depth{controller="orders",name="orders",priority=""})"), 1);
    EXPECT_EQ(queue_.Get(), "d");
}

// The bounds are 1e-8 multiplied by 10 repeatedly in doubles, as Go's ExponentialBuckets does,
// so the `le` labels are the ones controller-runtime exposes, rounding included.
TEST_F(QueueMetricsTest, DurationHistogramsHaveControllerRuntimesTwelveBuckets) {
    queue_.Add("a");
    ASSERT_EQ(queue_.Get(), "a");
    queue_.Done("a");
    const std::string text = registry_.SerializeText();
    for (const char* histogram : {"workqueue_queue_duration_seconds", "workqueue_work_duration_seconds"}) {
        for (const char* le : {"1e-08", "1e-07", "1e-06", "9.999999999999999e-06", "9.999999999999999e-05", "0.001",
                               "0.01", "0.1", "1", "10", "100", "1000", "+Inf"}) {
            const std::string series =
                std::string(histogram) + R"(_bucket{controller="orders",name="orders",le=")" + le + "\"}";
            EXPECT_TRUE(Sample(text, series).has_value()) << series << " missing in\n" << text;
        }
        EXPECT_EQ(Sample(text, std::string(histogram) + R"(_bucket{controller="orders",name="orders",le="+Inf"})"), 1);
    }
    EXPECT_EQ(DurationBuckets().size(), 12u);
}

TEST_F(QueueMetricsTest, EveryFamilyIsRegisteredWithItsType) {
    const std::string text = registry_.SerializeText();
    for (const char* line :
         {"# TYPE workqueue_depth gauge", "# TYPE workqueue_adds_total counter",
          "# TYPE workqueue_queue_duration_seconds histogram", "# TYPE workqueue_work_duration_seconds histogram",
          "# TYPE workqueue_unfinished_work_seconds gauge", "# TYPE workqueue_longest_running_processor_seconds gauge",
          "# TYPE workqueue_retries_total counter"}) {
        EXPECT_NE(text.find(line), std::string::npos) << line << " missing in\n" << text;
    }
}

TEST(QueueMetricsNames, AnUnnamedQueueHasNoMetrics) {
    metrics::Registry registry;
    IoThreads io;
    Queue<std::string> queue(io.Executor(), {.registry = &registry});
    queue.Add("a");
    EXPECT_EQ(registry.SerializeText().find("workqueue_"), std::string::npos);
}

TEST(QueueMetricsNames, QueuesOfTheSameRegistryGetTheirOwnSeries) {
    metrics::Registry registry;
    IoThreads io;
    Queue<std::string> one(io.Executor(), {.name = "one", .registry = &registry});
    Queue<std::string> two(io.Executor(), {.name = "two", .registry = &registry});
    one.Add("a");
    two.Add("a");
    two.Add("b");
    const std::string text = registry.SerializeText();
    EXPECT_EQ(Sample(text, R"(workqueue_adds_total{controller="one",name="one"})"), 1);
    EXPECT_EQ(Sample(text, R"(workqueue_adds_total{controller="two",name="two"})"), 2);
}

}  // namespace
}  // namespace ctrl::workqueue
