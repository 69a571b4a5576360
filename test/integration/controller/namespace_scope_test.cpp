// Issue 29, acceptance 1 and 3, against the real control plane: 5,000 ConfigMaps in 50 namespaces,
// a controller whose cache holds the namespaces labelled for its team (a namespace selector).
// Labelling another namespace gets its objects reconciled within 2 s, without a restart and
// without another informer listing again; unlabelling it stops its watch, sets its objects gauge
// to 0 and frees its objects (the heap drops by at least 90% of its store's bytes). After churn,
// each informer's objects gauge equals `kubectl get configmaps --no-headers | wc -l` there.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/secret.hpp"
#include "ctrl/builder/builder.hpp"
#include "ctrl/reconcile/reconciler.hpp"
#include "test/integration/controller/controller_fixture.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/heap_in_use.hpp"
#include "test/support/kubectl.hpp"
#include "test/support/metrics_text.hpp"

namespace ctrl {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::TestContext;
using Clock = std::chrono::steady_clock;

constexpr int kNamespaces = 50;
constexpr int kPerNamespace = 100;
constexpr int kLabelled = 25;  // scope-00 .. scope-24 carry the team label from the start
constexpr char kTeamLabel[] = "ctrl-test-team";
constexpr char kConfigMapGvk[] = "/v1, Kind=ConfigMap";

std::string NamespaceName(int i) {
    return std::string("scope-") + (i < 10 ? "0" : "") + std::to_string(i);
}

// The value of name{gvk="<gvk>", <label>="<value>"} in the default registry (the cache's), -1
// when absent.
double InformerMetric(const std::string& name, const std::string& gvk, const std::string& label,
                      const std::string& value) {
    return ctrl::testing::MetricValue(metrics::DefaultRegistry().SerializeText(), name, {{"gvk", gvk}, {label, value}})
        .value_or(-1);
}

double ConfigMapMetric(const std::string& name, const std::string& label, const std::string& value) {
    return InformerMetric(name, kConfigMapGvk, label, value);
}

using ctrl::testing::HeapInUse;

// The acceptance's bound for an added namespace's objects to be reconciled; sanitizers run the
// process several times slower.
#ifdef CTRL_TEST_SANITIZED
constexpr auto kAddedNamespaceBound = 10s;
#else
constexpr auto kAddedNamespaceBound = 2s;
#endif

// Server-side count of the ConfigMaps in ns, as `kubectl get configmaps --no-headers | wc -l`.
int KubectlCount(const std::string& ns) {
    StatusOr<ctrl::testing::CommandResult> got = ctrl::testing::Kubectl(
        ctrl::testing::SharedControlPlane().KubeconfigPath(), {"get", "configmaps", "-n", ns, "--no-headers"}, 30s);
    if (!got.Ok() || got->exit_code != 0)
        return -1;
    int lines = 0;
    std::istringstream out(got->out);
    for (std::string line; std::getline(out, line);)
        lines += line.empty() ? 0 : 1;
    return lines;
}

// A reconciler that records each call in log and succeeds.
std::shared_ptr<reconcile::Reconciler> RecordingInto(ctrl::testing::ReconcileLog& log) {
    return reconcile::AsReconciler([&log](Context, reconcile::Request request) -> Task<StatusOr<reconcile::Result>> {
        log.Begin(request.String());
        log.End(request.String());
        co_return reconcile::Result{};
    });
}

class NamespaceScopeTest : public ctrl::testing::ControllerFixture {
  protected:
    void ConfigureCluster(cluster::Options& options) override {
        options.cache.default_namespaces.clear();
        StatusOr<LabelSelector> team = LabelSelector::Parse(std::string(kTeamLabel) + "=a");
        ASSERT_TRUE(team.Ok()) << team.GetStatus();
        options.cache.namespace_selector = *team;
    }

    void LabelNamespace(const std::string& ns, bool team) {
        api::Namespace got;
        ASSERT_TRUE(Run(Direct().Get(TestContext(), ObjectKey("", ns), got)).Ok());
        std::map<std::string, std::string> labels = got.Labels();
        if (team)
            labels[kTeamLabel] = "a";
        else
            labels.erase(kTeamLabel);
        got.SetLabels(labels);
        ASSERT_TRUE(Run(Direct().Update(TestContext(), got)).Ok());
    }

    // The namespaces, labelled or not, each with kPerNamespace ConfigMaps of ~2 KB (made by 10
    // threads at once).
    void MakeObjects() {
        const std::string payload(2048, 'x');
        for (int i = 0; i < kNamespaces; ++i) {
            api::Namespace ns;
            ns.SetName(NamespaceName(i));
            if (i < kLabelled)
                ns.SetLabels({{kTeamLabel, "a"}});
            const Status made = Run(Direct().Create(TestContext(), ns));
            ASSERT_TRUE(made.Ok() || IsAlreadyExists(made)) << made;
        }
        const Status made = CreateConfigMaps(kNamespaces * kPerNamespace, [&](int i) {
            api::ConfigMap cm;
            cm.SetNamespace(NamespaceName(i / kPerNamespace));
            cm.SetName("cm-" + std::to_string(i % kPerNamespace));
            cm.SetDataValue("payload", payload);
            return cm;
        });
        ASSERT_TRUE(made.Ok()) << made;
    }

    // Reconciles of keys in ns.
    int ReconciledIn(const std::string& ns) {
        int count = 0;
        for (const std::string& key : log_.Keys())
            count += key.starts_with(ns + "/") ? 1 : 0;
        return count;
    }

    ctrl::testing::ReconcileLog log_;
};

TEST_F(NamespaceScopeTest, LabellingANamespaceAddsItsObjectsAndUnlabellingFreesThem) {
    const Clock::time_point making = Clock::now();
    MakeObjects();
    std::printf("made %d namespaces with %d ConfigMaps each in %.1f s\n", kNamespaces, kPerNamespace,
                std::chrono::duration<double>(Clock::now() - making).count());
    ASSERT_TRUE(builder::ControllerFor<api::ConfigMap>(*host_).Named("team-a").Complete(RecordingInto(log_)).Ok());
    StartHost();
    ASSERT_TRUE(Eventually([&] { return static_cast<int>(log_.Keys().size()) >= kLabelled * kPerNamespace; }, 60s))
        << log_.Keys().size() << " keys reconciled";
    EXPECT_EQ(ReconciledIn(NamespaceName(kLabelled)), 0) << "an unlabelled namespace is not cached";
    std::vector<std::string> cached = cluster_->GetCache().Namespaces();
    EXPECT_EQ(cached.size(), static_cast<std::size_t>(kLabelled));

    // Labelled: its objects reconciled within 2 s; no other informer listed again.
    const std::string added = NamespaceName(kLabelled);
    const double initial_lists = ConfigMapMetric("ctrl_informer_relists_total", "reason", "initial");
    const double other_sync =
        ConfigMapMetric("ctrl_informer_last_sync_timestamp_seconds", "namespace", NamespaceName(0));
    const Clock::time_point labelled = Clock::now();
    LabelNamespace(added, true);
    ASSERT_TRUE(Eventually([&] { return ReconciledIn(added) == kPerNamespace; }, 10s, 10ms))
        << ReconciledIn(added) << " of " << added << " reconciled";
    const Clock::duration reconciled_after = Clock::now() - labelled;
    std::printf("labelled %s: its %d ConfigMaps reconciled %.3f s later\n", added.c_str(), kPerNamespace,
                std::chrono::duration<double>(reconciled_after).count());
    EXPECT_LT(reconciled_after, kAddedNamespaceBound);
    EXPECT_EQ(ConfigMapMetric("ctrl_informer_relists_total", "reason", "initial"), initial_lists + 1)
        << "only the new namespace's informer lists";
    EXPECT_EQ(ConfigMapMetric("ctrl_informer_relists_total", "reason", "gone_410"), 0);
    EXPECT_EQ(ConfigMapMetric("ctrl_informer_last_sync_timestamp_seconds", "namespace", NamespaceName(0)), other_sync);
    EXPECT_EQ(ConfigMapMetric("ctrl_informer_objects", "namespace", added), kPerNamespace);

    // Churn in two cached namespaces, then each informer's gauge against the server's count.
    for (int j = 0; j < 10; ++j) {
        api::ConfigMap cm;
        cm.SetNamespace(added);
        cm.SetName("cm-" + std::to_string(j));
        ASSERT_TRUE(Run(Direct().Delete(TestContext(), cm)).Ok());
        api::ConfigMap extra;
        extra.SetNamespace(NamespaceName(1));
        extra.SetName("extra-" + std::to_string(j));
        ASSERT_TRUE(Run(Direct().Create(TestContext(), extra)).Ok());
    }
    for (const std::string& ns : {added, NamespaceName(1), NamespaceName(2)}) {
        const int listed = KubectlCount(ns);
        EXPECT_TRUE(
            Eventually([&] { return ConfigMapMetric("ctrl_informer_objects", "namespace", ns) == listed; }, 10s))
            << ns << ": gauge " << ConfigMapMetric("ctrl_informer_objects", "namespace", ns) << ", kubectl " << listed;
    }

    // Unlabelled: its watch stops, its gauge reads 0, its objects are freed.
    const double store_bytes = ConfigMapMetric("ctrl_informer_bytes", "namespace", added);
    ASSERT_GT(store_bytes, kPerNamespace * 1000);
    std::this_thread::sleep_for(500ms);  // settled
    const std::size_t heap_before = HeapInUse();
    LabelNamespace(added, false);
    ASSERT_TRUE(Eventually(
        [&] {
            const std::vector<std::string> now = cluster_->GetCache().Namespaces();
            return std::find(now.begin(), now.end(), added) == now.end();
        },
        10s, 10ms));
    EXPECT_TRUE(Eventually([&] { return ConfigMapMetric("ctrl_informer_objects", "namespace", added) == 0; }, 10s));
    EXPECT_TRUE(Eventually([&] { return ConfigMapMetric("ctrl_informer_bytes", "namespace", added) == 0; }, 10s));
    std::this_thread::sleep_for(500ms);  // the source has left the informer
    const std::size_t heap_after = HeapInUse();
    const double freed = static_cast<double>(heap_before) - static_cast<double>(heap_after);
    std::printf("unlabelled %s: store %.0f bytes; heap %zu -> %zu (%.0f bytes freed, %.0f%% of the store's bytes)\n",
                added.c_str(), store_bytes, heap_before, heap_after, freed, 100 * freed / store_bytes);
    EXPECT_GE(freed, 0.9 * store_bytes);
    // Another object there now reaches no reconciler.
    const int before_extra = ReconciledIn(added);
    api::ConfigMap late;
    late.SetNamespace(added);
    late.SetName("after-unlabel");
    ASSERT_TRUE(Run(Direct().Create(TestContext(), late)).Ok());
    std::this_thread::sleep_for(1s);
    EXPECT_EQ(ReconciledIn(added), before_extra);
}

using SelectorRestartTest = ctrl::testing::ControllerFixture;

// Scope: an informer's selector changed at run time restarts that informer alone.
TEST_F(SelectorRestartTest, NewSelectorsRestartThatKindsInformersAlone) {
    ctrl::testing::ReconcileLog log;
    // A ConfigMap in the test's namespace, labelled pick=yes when picked.
    const auto create = [&](const std::string& name, bool picked) {
        api::ConfigMap cm;
        cm.SetNamespace(Namespace());
        cm.SetName(name);
        if (picked)
            cm.SetLabels({{"pick", "yes"}});
        return Run(Direct().Create(TestContext(), cm));
    };
    ASSERT_TRUE(create("picked", true).Ok());
    ASSERT_TRUE(create("left", false).Ok());
    ASSERT_TRUE(builder::ControllerFor<api::ConfigMap>(*host_)
                    .Owns<api::Secret>()
                    .Named("picker")
                    .Complete(RecordingInto(log))
                    .Ok());
    StartHost();
    ASSERT_TRUE(Eventually([&] { return log.Keys().size() == 2; })) << log.Keys().size();
    const auto secrets_synced = [&] {
        return InformerMetric("ctrl_informer_last_sync_timestamp_seconds", "/v1, Kind=Secret", "namespace",
                              Namespace());
    };
    const double secrets_synced_before = secrets_synced();
    ASSERT_GT(secrets_synced_before, 0);

    StatusOr<LabelSelector> pick = LabelSelector::Parse("pick=yes");
    ASSERT_TRUE(pick.Ok());
    const GroupVersionKind gvk = scheme::GroupVersionKindOf<api::ConfigMap>();
    ASSERT_TRUE(cluster_->GetCache().SetSelectors(gvk, false, *pick, FieldSelector{}).Ok());
    // The cache holds the picked one only; a new picked one is reconciled, a new unpicked one not.
    EXPECT_TRUE(Eventually([&] {
        api::ConfigMapList list;
        return Run(Client().List(TestContext(), list, client::InNamespace(Namespace()))).Ok() &&
               list.Items().size() == 1;
    }));
    ASSERT_TRUE(create("picked-2", true).Ok());
    ASSERT_TRUE(create("left-2", false).Ok());
    EXPECT_TRUE(Eventually([&] { return log.Count(Namespace() + "/picked-2") > 0; }));
    std::this_thread::sleep_for(1s);
    EXPECT_EQ(log.Count(Namespace() + "/left-2"), 0);
    // The Secrets' informer (another kind of the same controller) did not list again.
    EXPECT_EQ(secrets_synced(), secrets_synced_before);
}

}  // namespace
}  // namespace ctrl
