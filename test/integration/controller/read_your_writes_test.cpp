// Read-your-own-writes against the real control plane: a cached read after this process's write
// is never older than the write.
//  - A reconciler keeping exactly one generateName child per parent, re-triggered 1 ms after each
//    create, with every watch lagging 2 s behind the server: without the feature it creates
//    duplicates (shown first, so the setup is hard enough); with it, none.
//  - 1,000 Update -> cached Get: the Get is never older than the Update, and none times out.
//  - 100 external changes racing the reconciler's own no-op status patches: every change is
//    reconciled (a write of this process hides nobody else's).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/builder/builder.hpp"
#include "ctrl/cache/written_version.hpp"
#include "ctrl/reconcile/reconciler.hpp"
#include "test/integration/controller/controller_fixture.hpp"
#include "test/support/lagging_transport.hpp"
#include "test/support/metrics_text.hpp"

namespace ctrl {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::TestContext;

constexpr int kParents = 200;
// Bounds the load when the feature is off: each parent gets at most this many children.
constexpr int kMaxCreatesPerParent = 3;

class ReadYourWritesTest : public ctrl::testing::ControllerFixture, public ::testing::WithParamInterface<bool> {
  protected:
    bool FeatureOn() const { return GetParam(); }
    void ConfigureRestConfig(rest::Config& config) override {
        config.wrap_transport = [this](std::unique_ptr<rest::Transport> inner) -> std::unique_ptr<rest::Transport> {
            auto lagging = std::make_unique<ctrl::testing::LaggingTransport>(std::move(inner));
            lagging_ = lagging.get();
            return lagging;
        };
    }
    void ConfigureCluster(cluster::Options& options) override {
        options.cache.read_your_writes_timeout = FeatureOn() ? 5s : 0s;
        options.cache.registry = &registry_;
    }
    double Metric(std::string_view name) const { return ctrl::testing::MetricSum(Scrape(), name); }

    // Parents "parent-<i>", each to have one child labelled parent=<its name>, made with generateName.
    Task<StatusOr<reconcile::Result>> KeepOneChild(Context ctx, reconcile::Request request) {
        if (!request.name.starts_with("parent-"))
            co_return reconcile::Result{};
        api::ConfigMapList children;
        CTRL_CO_RETURN_IF_ERROR(co_await Client().List(ctx, children, client::InNamespace(request.namespace_name),
                                                       client::MatchingLabels("parent", request.name)));
        if (!children.Items().empty())
            co_return reconcile::Result{};
        {
            std::lock_guard lock(mu_);
            if (creates_[request.name]++ >= kMaxCreatesPerParent)
                co_return reconcile::Result{};
        }
        api::ConfigMap child;
        child.SetNamespace(request.namespace_name);
        child.SetGenerateName("child-" + request.name + "-");
        child.SetLabels({{"parent", request.name}});
        CTRL_CO_RETURN_IF_ERROR(co_await Client().Create(ctx, child));
        co_return reconcile::Result{.requeue_after = 1ms};
    }

    // Children per parent, as the server has them.
    std::map<std::string, int> ChildrenByParent() {
        api::ConfigMapList all;
        const Status listed = Run(Direct().List(TestContext(), all, client::InNamespace(Namespace())));
        EXPECT_TRUE(listed.Ok()) << listed;
        std::map<std::string, int> children;
        for (const Object& cm : all.Items()) {
            const auto labels = cm.Labels();
            if (auto it = labels.find("parent"); it != labels.end())
                ++children[it->second];
        }
        return children;
    }

    ctrl::testing::LaggingTransport* lagging_ = nullptr;
    std::mutex mu_;
    std::map<std::string, int> creates_;
};

TEST_P(ReadYourWritesTest, OneChildPerParentWithALaggingWatch) {
    ASSERT_NE(lagging_, nullptr);
    lagging_->SetLag(2s);
    auto reconciler = reconcile::AsReconciler(
        [this](Context ctx, reconcile::Request request) { return KeepOneChild(std::move(ctx), std::move(request)); });
    StatusOr<std::shared_ptr<controller::Controller>> built =
        builder::ControllerFor<api::ConfigMap>(*host_)
            .Named(FeatureOn() ? "one-child-ryw" : "one-child-stale")
            .WithOptions(controller::Options{.max_concurrent_reconciles = 50, .skip_name_validation = true})
            .Build(reconciler);
    ASSERT_TRUE(built.Ok()) << built.GetStatus();
    StartHost();
    ASSERT_TRUE(Run((*built)->WaitForStarted(TestContext())).Ok());
    const Status made = CreateConfigMaps(kParents, [&](int i) {
        api::ConfigMap parent;
        parent.SetNamespace(Namespace());
        parent.SetName("parent-" + std::to_string(i));
        return parent;
    });
    ASSERT_TRUE(made.Ok()) << made;
    ASSERT_TRUE(
        Eventually([&] { return ChildrenByParent().size() == static_cast<std::size_t>(kParents); }, 120s, 200ms));
    // Every reconcile a lagging event can still cause has run by then.
    std::this_thread::sleep_for(lagging_->Lag() + 3s);
    int duplicates = 0;
    for (const auto& [parent, count] : ChildrenByParent())
        duplicates += count - 1;
    std::printf("%s: %d parents, watch lagging %lld ms: %d duplicate children; %g reads waited, %g timed out\n",
                FeatureOn() ? "read-your-own-writes on" : "read-your-own-writes off", kParents,
                static_cast<long long>(lagging_->Lag().count()), duplicates,
                Metric("ctrl_cache_read_your_writes_waits_total"),
                Metric("ctrl_cache_read_your_writes_timeouts_total"));
    if (FeatureOn()) {
        EXPECT_EQ(duplicates, 0);
        EXPECT_GT(Metric("ctrl_cache_read_your_writes_waits_total"), 0);
    } else {
        EXPECT_GT(duplicates, 0) << "the setup is too easy: a stale cache made no duplicate";
    }
}

// Off first: the stale cache's duplicates are shown before the feature removes them.
INSTANTIATE_TEST_SUITE_P(FeatureOffThenOn, ReadYourWritesTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) { return info.param ? "On" : "Off"; });

class ReadYourWritesOnTest : public ctrl::testing::ControllerFixture {
  protected:
    void ConfigureCluster(cluster::Options& options) override { options.cache.registry = &registry_; }
    double Metric(std::string_view name) const { return ctrl::testing::MetricSum(Scrape(), name); }
};

TEST_F(ReadYourWritesOnTest, ACachedGetAfterAnUpdateIsNeverOlderThanIt) {
    StartHost();
    api::ConfigMap cm;
    cm.SetNamespace(Namespace());
    cm.SetName("counter");
    ASSERT_TRUE(Run(Client().Create(TestContext(), cm)).Ok());
    constexpr int kRounds = 1'000;
    int older = 0;
    for (int i = 0; i < kRounds; ++i) {
        api::ConfigMap read;
        const Status got = Run(Client().Get(TestContext(), {Namespace(), "counter"}, read));
        ASSERT_TRUE(got.Ok()) << got;
        read.SetData({{"n", std::to_string(i)}});
        const Status updated = Run(Client().Update(TestContext(), read));
        ASSERT_TRUE(updated.Ok()) << "round " << i << ": " << updated;
        const uint64_t written = cache::ComparableResourceVersion(read.ResourceVersion());
        api::ConfigMap after;
        ASSERT_TRUE(Run(Client().Get(TestContext(), {Namespace(), "counter"}, after)).Ok());
        if (cache::ComparableResourceVersion(after.ResourceVersion()) < written)
            ++older;
    }
    std::printf("%d Update -> cached Get: %d older than the write; %g reads waited, %g timed out\n", kRounds, older,
                Metric("ctrl_cache_read_your_writes_waits_total"),
                Metric("ctrl_cache_read_your_writes_timeouts_total"));
    EXPECT_EQ(older, 0);
    EXPECT_EQ(Metric("ctrl_cache_read_your_writes_timeouts_total"), 0);
}

TEST_F(ReadYourWritesOnTest, OwnNoOpStatusPatchesHideNoExternalChange) {
    std::atomic<int> seen{-1};
    auto reconciler = reconcile::AsReconciler(
        [this, &seen](Context ctx, reconcile::Request request) -> Task<StatusOr<reconcile::Result>> {
            api::Pod pod;
            CTRL_CO_RETURN_IF_ERROR(co_await Client().Get(ctx, {request.namespace_name, request.name}, pod));
            const std::vector<api::Container> containers = pod.Containers();
            if (!containers.empty() && containers[0].image.starts_with("img:")) {
                const int value = std::stoi(containers[0].image.substr(4));
                int last = seen.load();
                while (value > last && !seen.compare_exchange_weak(last, value)) {
                }
            }
            // A status patch that changes nothing: the server answers the object's current version.
            CTRL_CO_RETURN_IF_ERROR(
                co_await Client().Status().Patch(ctx, pod, client::RawPatch(client::PatchType::kMergePatch, "{}")));
            co_return reconcile::Result{};
        });
    StatusOr<std::shared_ptr<controller::Controller>> built =
        builder::ControllerFor<api::Pod>(*host_)
            .Named("no-op-status")
            .WithOptions(controller::Options{.skip_name_validation = true})
            .Build(reconciler);
    ASSERT_TRUE(built.Ok()) << built.GetStatus();
    StatusOr<Object> pod = Object::Parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"racer","namespace":")" +
                                         Namespace() + R"("},"spec":{"containers":[{"name":"c","image":"img:0"}]}})");
    ASSERT_TRUE(pod.Ok());
    ASSERT_TRUE(Run(Direct().Create(TestContext(), *pod)).Ok());
    StartHost();
    constexpr int kChanges = 100;
    for (int i = 1; i <= kChanges; ++i) {
        const std::string patch =
            R"({"spec":{"containers":[{"name":"c","image":"img:)" + std::to_string(i) + R"("}]}})";
        Object target = pod->DeepCopy();
        const Status patched = Run(
            Direct().Patch(TestContext(), target, client::RawPatch(client::PatchType::kStrategicMergePatch, patch)));
        ASSERT_TRUE(patched.Ok()) << "change " << i << ": " << patched;
        ASSERT_TRUE(Eventually([&] { return seen.load() >= i; }, 20s, 5ms))
            << "external change " << i << " was never reconciled (last seen " << seen.load() << ")";
    }
    std::printf("%d external changes racing own no-op status patches: all reconciled; %g reads waited, %g timed out\n",
                kChanges, Metric("ctrl_cache_read_your_writes_waits_total"),
                Metric("ctrl_cache_read_your_writes_timeouts_total"));
}

}  // namespace
}  // namespace ctrl
