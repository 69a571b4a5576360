// cluster::Cluster against the real control plane (issue 11, acceptance 3): one call builds the
// client, the cache and the delegating client, and they share one mapper (one discovery round for
// all of them, counted by the discovery metric) and one RestClient (every request of discovery, the
// cache's list and watch and the direct client's reads passes through its one transport).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/counted_rest_client.hpp"
#include "test/support/counting_transport.hpp"
#include "test/support/eventually.hpp"
#include "test/support/io_loop.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::cluster {
namespace {

using namespace std::chrono_literals;

Context Within(std::chrono::milliseconds timeout) {
    return Context::WithTimeout(Context::Background(), timeout);
}

int CountOf(const std::vector<std::string>& paths, std::string_view prefix) {
    return static_cast<int>(
        std::count_if(paths.begin(), paths.end(), [&](const std::string& p) { return p.rfind(prefix, 0) == 0; }));
}

class ClusterTest : public ::testing::Test {
  protected:
    void SetUp() override {
        StatusOr<ctrl::testing::CountedCluster> counted =
            ctrl::testing::NewCountedCluster(ctrl::testing::SharedAdminConfig(), loop_.Executor(), registry_);
        ASSERT_TRUE(counted.Ok()) << counted.GetStatus();
        transport_ = counted->transport;
        cluster_ = std::move(counted->cluster);
    }

    void TearDown() override {
        stop_.Cancel();
        cluster_.reset();
        loop_.Stop();
    }

    template <typename T>
    T Run(Task<T> task) {
        return loop_.Run(std::move(task));
    }

    metrics::Registry registry_;
    ctrl::testing::IoLoop loop_;
    ctrl::testing::CountingTransport* transport_ = nullptr;
    std::unique_ptr<Cluster> cluster_;
    Context stop_ = Context::WithCancel(Context::Background());
};

TEST_F(ClusterTest, ClientCacheAndDelegatingClientShareOneMapperAndOneRestClient) {
    EXPECT_EQ(&cluster_->GetClient().RESTMapper(), &cluster_->GetRESTMapper());
    EXPECT_EQ(&cluster_->GetAPIReader().RESTMapper(), &cluster_->GetRESTMapper());
    EXPECT_EQ(&cluster_->GetClient().Scheme(), &cluster_->GetScheme());
    EXPECT_EQ(transport_->Count(), 0) << "nothing is requested before the first use";

    cluster_->Start(stop_);
    api::Namespace ns;
    ns.SetName("cluster-shared");
    ASSERT_TRUE(Run(cluster_->GetAPIReader().Create(Within(30s), ns)).Ok());
    api::ConfigMap cm;
    cm.SetNamespace("cluster-shared");
    cm.SetName("one");
    ASSERT_TRUE(Run(cluster_->GetClient().Create(Within(30s), cm)).Ok());

    // Three kinds through three paths: a direct Get, cached Lists (informers), a cached Get.
    api::Namespace read_ns;
    ASSERT_TRUE(Run(cluster_->GetAPIReader().Get(Within(30s), {"", "cluster-shared"}, read_ns)).Ok());
    api::PodList pods;
    ASSERT_TRUE(Run(cluster_->GetClient().List(Within(30s), pods, client::InNamespace("cluster-shared"))).Ok());
    api::ConfigMap cached;
    ASSERT_TRUE(Run(cluster_->GetClient().Get(Within(30s), {"cluster-shared", "one"}, cached)).Ok());
    ASSERT_TRUE(Run(cluster_->WaitForCacheSync(Within(30s))).Ok());

    const std::vector<std::string> paths = transport_->Paths();
    // One aggregated discovery round (/api and /apis) served the client, the cache and the
    // delegating client: separate mappers would each have made their own.
    const std::string text = registry_.SerializeText();
    EXPECT_THAT(text,
                ::testing::HasSubstr("ctrl_discovery_requests_total{path_kind=\"aggregated\",result=\"success\"} 2"))
        << text;
    // The cache's lists and watches and the direct client's requests went through the one transport.
    EXPECT_GE(CountOf(paths, "/api/v1/pods"), 1) << "the pod informer lists through the shared RestClient";
    EXPECT_GE(CountOf(paths, "/api/v1/configmaps"), 1) << "the configmap informer too";
    EXPECT_EQ(std::count(paths.begin(), paths.end(), "/api/v1/namespaces/cluster-shared"), 1) << "the direct Get";
}

TEST_F(ClusterTest, SyncedInformersAnswerWithoutWaitingAndTypedReadsNameTheirKind) {
    cluster_->Start(stop_);
    cache::Cache& cache = cluster_->GetCache();
    api::Namespace ns;
    ns.SetName("cluster-now");
    ASSERT_TRUE(Run(cluster_->GetAPIReader().Create(Within(30s), ns)).Ok());
    api::ConfigMap cm;
    cm.SetNamespace("cluster-now");
    cm.SetName("now");
    cm.SetLabel("app", "web");
    ASSERT_TRUE(Run(cluster_->GetAPIReader().Create(Within(30s), cm)).Ok());

    StatusOr<std::shared_ptr<const Object>> before = cache.GetSharedNow<api::ConfigMap>({"cluster-now", "now"});
    EXPECT_TRUE(IsUnavailable(before.GetStatus())) << "no informer yet: " << before.GetStatus();

    StatusOr<std::vector<cache::Informer*>> informers = Run(cache.GetInformersFor<api::ConfigMap>(Within(30s)));
    ASSERT_TRUE(informers.Ok()) << informers.GetStatus();
    ASSERT_TRUE(Run(cluster_->WaitForCacheSync(Within(30s))).Ok());
    ASSERT_TRUE(ctrl::testing::Eventually(
        [&] {
            return cache.GetSharedNow<api::ConfigMap>({"cluster-now", "now"}).Ok();
        },
        ctrl::testing::kTestWait))
        << "the synced informer sees the object without a coroutine";
    StatusOr<std::vector<std::shared_ptr<const Object>>> web =
        cache.ListSharedNow<api::ConfigMap>(client::InNamespace("cluster-now"), client::MatchingLabels("app", "web"));
    ASSERT_TRUE(web.Ok()) << web.GetStatus();
    ASSERT_EQ(web->size(), 1u);
    EXPECT_EQ((*web)[0]->Name(), "now");
    StatusOr<std::shared_ptr<const Object>> missing = cache.GetSharedNow<api::ConfigMap>({"cluster-now", "none"});
    EXPECT_TRUE(IsNotFound(missing.GetStatus())) << missing.GetStatus();
    EXPECT_EQ(missing.GetStatus().Message(), "configmaps \"none\" not found");

    StatusOr<std::shared_ptr<const Object>> typed =
        Run(cache.GetShared<api::ConfigMap>(Within(30s), {"cluster-now", "now"}));
    ASSERT_TRUE(typed.Ok()) << typed.GetStatus();
    EXPECT_EQ(api::ConfigMapView(**typed).DataValue("absent"), std::nullopt);
}

TEST_F(ClusterTest, RunReturnsWhenItsContextEnds) {
    const Context ctx = Context::WithCancel(Context::Background());
    std::atomic<bool> returned{false};
    Status result;
    boost::asio::co_spawn(
        loop_.Executor(),
        [&]() -> Task<void> {
            result = co_await cluster_->Run(ctx);
            returned = true;
        },
        boost::asio::detached);
    ASSERT_TRUE(ctrl::testing::Eventually([&] { return cluster_->GetCache().Started(); }, ctrl::testing::kTestWait));
    api::PodList pods;
    ASSERT_TRUE(Run(cluster_->GetClient().List(Within(30s), pods)).Ok());
    ctx.Cancel();
    EXPECT_TRUE(ctrl::testing::Eventually([&] { return returned.load(); }, ctrl::testing::kTestWait));
    EXPECT_TRUE(result.Ok()) << result;
    EXPECT_TRUE(cluster_->GetCache().Stopped());
}

}  // namespace
}  // namespace ctrl::cluster
