// Issue 29, acceptance 4, against the real control plane: a bounded cache of ConfigMaps (1 MiB)
// over 10,000 of them holds at most its limit; a Get of an evicted object costs exactly one GET
// to the server and returns the server's object, a Get of a held one costs none, and a List
// costs one LIST.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "ctrl/api/config_map.hpp"
#include "ctrl/cache/cache.hpp"
#include "ctrl/metrics/registry.hpp"
#include "test/integration/controller/controller_fixture.hpp"
#include "test/support/heap_in_use.hpp"
#include "test/support/metrics_text.hpp"

namespace ctrl {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::TestContext;

constexpr int kConfigMaps = 10'000;
constexpr std::size_t kLimit = 1 << 20;  // 1 MiB

double CacheMetric(const std::string& name, const std::map<std::string, std::string>& labels) {
    return ctrl::testing::MetricValue(metrics::DefaultRegistry().SerializeText(), name, labels).value_or(-1);
}

class BoundedCacheTest : public ctrl::testing::ControllerFixture {
  protected:
    void ConfigureCluster(cluster::Options& options) override {
        options.cache.by_object[scheme::GroupVersionKindOf<api::ConfigMap>()] = cache::ByObject{.max_bytes = kLimit};
    }

    // kConfigMaps ConfigMaps of ~1 KB in the test's namespace.
    void MakeConfigMaps() {
        const std::string payload(1000, 'x');
        const Status made = CreateConfigMaps(kConfigMaps, [&](int i) {
            api::ConfigMap cm;
            cm.SetNamespace(Namespace());
            cm.SetName("cm-" + std::to_string(i));
            cm.SetDataValue("payload", payload);
            cm.SetDataValue("index", std::to_string(i));
            return cm;
        });
        ASSERT_TRUE(made.Ok()) << made;
    }
};

TEST_F(BoundedCacheTest, HoldsAtMostItsLimitAndReadsAnEvictedObjectWithOneGet) {
    MakeConfigMaps();
    const std::size_t heap_before = ctrl::testing::HeapInUse();
    StartHost();
    ASSERT_TRUE(Run(cluster_->GetCache().WaitForStarted(TestContext())).Ok());
    const GroupVersionKind gvk = scheme::GroupVersionKindOf<api::ConfigMap>();
    // The first read starts the informer and waits for its sync.
    api::ConfigMap first;
    const Status read = Run(Client().Get(TestContext(), ObjectKey(Namespace(), "cm-9999"), first));
    ASSERT_TRUE(read.Ok()) << read;
    StatusOr<std::vector<cache::Informer*>> informers =
        Run(cluster_->GetCache().GetInformers(TestContext(), gvk, false));
    ASSERT_TRUE(informers.Ok() && informers->size() == 1);
    const cache::Store& store = informers->front()->GetStore();

    const std::map<std::string, std::string> labels{{"gvk", gvk.String()}, {"namespace", Namespace()}};
    EXPECT_LE(store.EncodedBytes(), kLimit);
    EXPECT_LE(CacheMetric("ctrl_informer_bytes", labels), static_cast<double>(kLimit));
    EXPECT_TRUE(store.HasEvicted());
    const double evictions = CacheMetric("ctrl_informer_evictions_total", {{"gvk", gvk.String()}});
    std::printf("bounded to %zu bytes: holds %zu of %d ConfigMaps in %zu bytes; %.0f evicted\n", kLimit, store.Size(),
                kConfigMaps, store.EncodedBytes(), evictions);
    EXPECT_EQ(store.Size() + static_cast<std::size_t>(evictions), static_cast<std::size_t>(kConfigMaps));
    std::this_thread::sleep_for(500ms);  // the first list's events handed out and released
    std::printf("heap: %zu -> %zu bytes (+%zd) with the informer synced\n", heap_before, ctrl::testing::HeapInUse(),
                static_cast<ssize_t>(ctrl::testing::HeapInUse()) - static_cast<ssize_t>(heap_before));

    // A held object: no request.
    const std::vector<std::string> held = store.ListKeys();
    ASSERT_FALSE(held.empty());
    const std::string held_name = held.back().substr(held.back().find('/') + 1);
    int before = transport_->Count();
    api::ConfigMap got;
    ASSERT_TRUE(Run(Client().Get(TestContext(), ObjectKey(Namespace(), held_name), got)).Ok());
    EXPECT_EQ(transport_->Count(), before) << "a held object is read from the cache";

    // An evicted object: exactly one GET, and the server's object.
    std::string evicted_name;
    for (int i = 0; i < kConfigMaps && evicted_name.empty(); ++i)
        if (!store.Get(Namespace(), "cm-" + std::to_string(i)))
            evicted_name = "cm-" + std::to_string(i);
    ASSERT_FALSE(evicted_name.empty());
    const double gets = CacheMetric("ctrl_cache_evicted_reads_total", {{"gvk", gvk.String()}, {"verb", "get"}});
    before = transport_->Count();
    ASSERT_TRUE(Run(Client().Get(TestContext(), ObjectKey(Namespace(), evicted_name), got)).Ok());
    EXPECT_EQ(transport_->Count(), before + 1) << "one GET for an evicted object";
    EXPECT_EQ(got.Name(), evicted_name);
    EXPECT_EQ(got.DataValue("index").value_or(""), evicted_name.substr(3));
    EXPECT_EQ(CacheMetric("ctrl_cache_evicted_reads_total", {{"gvk", gvk.String()}, {"verb", "get"}}),
              std::max(gets, 0.0) + 1);
    // A missing one: one GET too, and NotFound.
    before = transport_->Count();
    EXPECT_TRUE(IsNotFound(Run(Client().Get(TestContext(), ObjectKey(Namespace(), "absent"), got))));
    EXPECT_EQ(transport_->Count(), before + 1);

    // A List: one LIST, every object.
    before = transport_->Count();
    api::ConfigMapList list;
    ASSERT_TRUE(Run(Client().List(TestContext(), list, client::InNamespace(Namespace()))).Ok());
    EXPECT_EQ(list.Items().size(), static_cast<std::size_t>(kConfigMaps));
    EXPECT_EQ(transport_->Count(), before + 1) << "one LIST";
    // Still within the limit after the reads.
    EXPECT_LE(store.EncodedBytes(), kLimit);
}

}  // namespace
}  // namespace ctrl
