#include "ctrl/metrics/registry.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

namespace ctrl::metrics {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(RegistryTest, SerializesCountersWithLabelsInTextFormat) {
    Registry registry;
    CounterFamily total =
        registry.AddCounter("controller_runtime_reconcile_total", "Total reconciliations", {"controller", "result"});
    total.WithLabelValues({"pods", "success"}).Inc();
    total.WithLabelValues({"pods", "success"}).Inc(2);
    total.WithLabelValues({"pods", "error"});

    const std::string text = registry.SerializeText();
    EXPECT_THAT(text, HasSubstr("# TYPE controller_runtime_reconcile_total counter"));
    EXPECT_THAT(text, HasSubstr("controller_runtime_reconcile_total{controller=\"pods\",result=\"success\"} 3"));
    EXPECT_THAT(text, HasSubstr("controller_runtime_reconcile_total{controller=\"pods\",result=\"error\"} 0"));
}

TEST(RegistryTest, RegisteringTheSameMetricAgainReturnsTheSameSeries) {
    Registry registry;
    registry.AddGauge("workqueue_depth", "Depth", {"name"}).WithLabelValues({"q"}).Set(4);
    Gauge again = registry.AddGauge("workqueue_depth", "Depth", {"name"}).WithLabelValues({"q"});
    EXPECT_EQ(again.Value(), 4);
    again.Dec();
    EXPECT_THAT(registry.SerializeText(), HasSubstr("workqueue_depth{name=\"q\"} 3"));
}

TEST(RegistryTest, HistogramsUseTheGivenBuckets) {
    Registry registry;
    HistogramFamily family =
        registry.AddHistogram("rest_client_request_duration_seconds", "Latency", {"verb", "host"}, {0.005, 0.025, 0.1});
    Histogram h = family.WithLabelValues({"GET", "127.0.0.1"});
    h.Observe(0.01);
    h.Observe(0.5);
    EXPECT_EQ(h.SampleCount(), 2u);
    EXPECT_DOUBLE_EQ(h.SampleSum(), 0.51);
    const std::string text = registry.SerializeText();
    EXPECT_THAT(text, HasSubstr("rest_client_request_duration_seconds_bucket{host=\"127.0.0.1\",verb=\"GET\","
                                "le=\"0.005\"} 0"));
    EXPECT_THAT(text, HasSubstr("le=\"0.025\"} 1"));
    EXPECT_THAT(text, HasSubstr("le=\"+Inf\"} 2"));
}

TEST(RegistryTest, RegistriesAreIndependent) {
    Registry a;
    Registry b;
    a.AddCounter("only_in_a_total", "x", {}).WithLabelValues({}).Inc();
    EXPECT_THAT(b.SerializeText(), Not(HasSubstr("only_in_a_total")));
}

TEST(RegistryTest, BucketHelpersMatchPrometheusDefinitions) {
    EXPECT_EQ(ExponentialBuckets(1e-8, 10, 3), (std::vector<double>{1e-8, 1e-7, 1e-6}));
    EXPECT_EQ(LinearBuckets(0.1, 0.05, 3).size(), 3u);
    EXPECT_DOUBLE_EQ(LinearBuckets(0.1, 0.05, 3)[2], 0.2);
}

TEST(RegistryDeathTest, WrongNumberOfLabelValuesAbortsNamingTheMetric) {
    Registry registry;
    CounterFamily family = registry.AddCounter("x_total", "x", {"a", "b"});
    EXPECT_DEATH(family.WithLabelValues({"only-one"}), "x_total: expected 2 label values, got 1");
}

TEST(RegistryDeathTest, ClashingTypeAbortsNamingTheMetric) {
    Registry registry;
    (void)registry.AddCounter("clash", "x", {});
    EXPECT_DEATH((void)registry.AddGauge("clash", "x", {}), "clash: already registered with another type");
}

TEST(RegistryTest, CollectHooksRunBeforeEachSerializationInOrder) {
    Registry registry;
    Gauge gauge = registry.AddGauge("scrapes", "Scrapes seen by the hook", {}).WithLabelValues({});
    std::vector<int> order;
    registry.AddCollectHook([&] {
        order.push_back(1);
        gauge.Inc();
    });
    registry.AddCollectHook([&] { order.push_back(2); });
    EXPECT_THAT(registry.SerializeText(), HasSubstr("scrapes 1"));
    EXPECT_THAT(registry.SerializeText(), HasSubstr("scrapes 2"));
    EXPECT_EQ(order, (std::vector<int>{1, 2, 1, 2}));
}

TEST(RegistryTest, AnOwnedCollectHookRunsWhileItsOwnerLives) {
    Registry registry;
    int runs = 0;
    auto owner = std::make_shared<int>(0);
    registry.AddCollectHook(std::weak_ptr<const void>(owner), [&] { ++runs; });
    (void)registry.SerializeText();
    EXPECT_EQ(runs, 1);
    owner.reset();
    (void)registry.SerializeText();
    (void)registry.SerializeText();
    EXPECT_EQ(runs, 1);
}

TEST(RegistryTest, ObserveBucketsAddsManyObservations) {
    Registry registry;
    Histogram histogram = registry.AddHistogram("waits", "x", {}, {1, 10}).WithLabelValues({});
    histogram.ObserveBuckets({2, 1, 1}, 25.5);
    EXPECT_EQ(histogram.SampleCount(), 4u);
    EXPECT_DOUBLE_EQ(histogram.SampleSum(), 25.5);
    EXPECT_THAT(registry.SerializeText(), HasSubstr("waits_bucket{le=\"10\"} 3"));
}

TEST(RegistryTest, DefaultRegistryIsOneInstance) {
    EXPECT_EQ(&DefaultRegistry(), &DefaultRegistry());
}

}  // namespace
}  // namespace ctrl::metrics
