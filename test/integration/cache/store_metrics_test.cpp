// What an informer's store holds, exported (issue 29, per-informer gauges): ctrl_informer_objects
// and ctrl_informer_bytes follow the store through a list and a churn of creates and deletes, and
// equal what the API server lists; ctrl_informer_last_sync_timestamp_seconds is the last list's time.

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "ctrl/metrics/registry.hpp"
#include "test/integration/cache/cluster_fixture.hpp"
#include "test/integration/cache/pod_ops.hpp"
#include "test/support/metrics_text.hpp"

namespace ctrl::cache::test {
namespace {

using namespace std::chrono_literals;

// The value of `name`{..., namespace="<ns>"} in the default registry, or -1 when absent.
double StoreGauge(const std::string& name, const std::string& ns) {
    return ctrl::testing::MetricValue(metrics::DefaultRegistry().SerializeText(), name, {{"namespace", ns}})
        .value_or(-1);
}

class StoreMetricsTest : public ClusterTest {};

TEST_F(StoreMetricsTest, ObjectsAndBytesFollowTheStoreAndEqualTheServersList) {
    const std::string ns = "cache-gauges";
    ASSERT_TRUE(Run(CreateNamespace(*client_, ns, Within(30s))).Ok());
    ASSERT_TRUE(Run(CreatePods(*client_, ns, "g-", 12, 4, Within(60s))).Ok());
    const double before = static_cast<double>(
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count());
    StartReflector(ns);
    ASSERT_TRUE(Run(reflector_->WaitForSync(Within(60s))).Ok());
    EXPECT_EQ(StoreGauge("ctrl_informer_objects", ns), 12);
    EXPECT_EQ(StoreGauge("ctrl_informer_bytes", ns), static_cast<double>(store_.EncodedBytes()));
    EXPECT_GT(StoreGauge("ctrl_informer_bytes", ns), 12 * 100);
    EXPECT_GE(StoreGauge("ctrl_informer_last_sync_timestamp_seconds", ns), before);

    for (int i = 0; i < 5; ++i)
        ASSERT_TRUE(Run(DeletePod(*client_, ns, PodName("g-", i), Within(30s))).Ok());
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE(Run(CreatePod(*client_, ns, PodName("h-", i), i, Within(30s))).Ok());
    std::size_t listed = 0;
    ASSERT_TRUE(Eventually(
        [&] {
            auto pods = Run(ListPods(*client_, ns, Within(30s)));
            listed = pods.Ok() ? pods->size() : 0;
            return StoreGauge("ctrl_informer_objects", ns) == static_cast<double>(listed);
        },
        30s))
        << "gauge " << StoreGauge("ctrl_informer_objects", ns) << ", server lists " << listed;
    EXPECT_EQ(listed, 10u);
    EXPECT_EQ(StoreGauge("ctrl_informer_bytes", ns), static_cast<double>(store_.EncodedBytes()));
}

}  // namespace
}  // namespace ctrl::cache::test
