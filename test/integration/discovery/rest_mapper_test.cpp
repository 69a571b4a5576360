// The lazy RESTMapper against the real API server, counting every HTTP request that reaches the
// transport, with aggregated discovery and with it refused (docs/restmapper.md; issue 4,
// acceptance 1-4). Faults the real server cannot be driven into (503, dropped connections) are in
// test/unit/discovery/lazy_rest_mapper_test.cpp.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <mutex>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/discovery/lazy_rest_mapper.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/counting_transport.hpp"
#include "test/support/crd_deletion.hpp"
#include "test/support/eventually.hpp"
#include "test/support/fake_api_server.hpp"
#include "test/support/kubectl.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::discovery::test {
namespace {

using namespace std::chrono_literals;

const GroupKind kPod{"", "Pod"};
const GroupKind kSgp{"vpcresources.k8s.aws", "SecurityGroupPolicy"};
const GroupKind kCniNode{"vpcresources.k8s.aws", "CNINode"};

using ctrl::testing::CountingTransport;

std::string Kubeconfig() {
    return ctrl::testing::SharedControlPlane().KubeconfigPath();
}

void RunKubectl(const std::vector<std::string>& args) {
    StatusOr<ctrl::testing::CommandResult> result = ctrl::testing::Kubectl(Kubeconfig(), args, 60s);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    ASSERT_EQ(result->exit_code, 0) << result->err;
}

// Applies a CRD manifest and waits until it is Established and its group version is served.
void InstallCrd(const std::string& manifest, const std::string& name, const std::string& gv_path) {
    RunKubectl({"apply", "-f", testing::RepoPath(manifest)});
    RunKubectl({"wait", "--for=condition=Established", "--timeout=60s", "crd/" + name});
    RunKubectl({"get", "--raw", gv_path});
}

// Deletes a CRD (test/support/crd_deletion.hpp: waits out the API server's own cleanup) and waits
// until its group version is no longer served.
void DeleteCrd(const std::string& name, const std::string& gv_path) {
    Status deleted = ctrl::testing::DeleteCrdAndWait(Kubeconfig(), name);
    ASSERT_TRUE(deleted.Ok()) << deleted;
    const auto gone = [&] {
        StatusOr<ctrl::testing::CommandResult> got =
            ctrl::testing::Kubectl(Kubeconfig(), {"get", "--raw", gv_path}, 30s);
        return got.Ok() && got->exit_code != 0;
    };
    EXPECT_TRUE(ctrl::testing::Eventually(gone, ctrl::testing::kTestWait, 100ms)) << gv_path << " is still served";
}

class RESTMapperIntegrationTest : public ::testing::TestWithParam<bool> {
  protected:
    void SetUp() override {
        rest::KubeconfigOptions options;
        options.explicit_path = Kubeconfig();
        StatusOr<rest::Config> config = rest::LoadKubeconfig(options);
        ASSERT_TRUE(config.Ok()) << config.GetStatus();
        auto transport = rest::NewTransport(*config, io_.get_executor());
        ASSERT_TRUE(transport.Ok()) << transport.GetStatus();
        auto counting = std::make_unique<CountingTransport>(std::move(transport).Value());
        counter_ = counting.get();
        auto auth = rest::NewAuthenticator(*config);
        ASSERT_TRUE(auth.Ok()) << auth.GetStatus();
        rest_ = std::make_unique<rest::RestClient>(*config, std::move(counting), std::move(auth).Value(), registry_);
        discovery_ = std::make_shared<DiscoveryClient>(*rest_, DiscoveryOptions{.aggregated = GetParam()}, registry_);
        mapper_ = std::make_unique<LazyRESTMapper>(discovery_, LazyRESTMapperOptions{}, registry_);
    }

    StatusOr<RESTMapping> Map(const GroupKind& kind, std::vector<std::string> versions = {}) {
        return RunSync(
            io_, mapper_->RESTMapping(Context::WithTimeout(Context::Background(), 30s), kind, std::move(versions)));
    }
    bool Aggregated() const { return GetParam(); }

    boost::asio::io_context io_;
    metrics::Registry registry_;
    CountingTransport* counter_ = nullptr;
    std::unique_ptr<rest::RestClient> rest_;
    std::shared_ptr<DiscoveryClient> discovery_;
    std::unique_ptr<LazyRESTMapper> mapper_;
};

TEST_P(RESTMapperIntegrationTest, KnownKindsCostNothingAfterTheFirstRound) {
    EXPECT_EQ(counter_->Count(), 0) << "nothing before the first lookup";
    StatusOr<RESTMapping> pod = Map(kPod, {"v1"});
    ASSERT_TRUE(pod.Ok()) << pod.GetStatus();
    EXPECT_EQ(pod->resource, (GroupVersionResource{"", "v1", "pods"}));
    EXPECT_EQ(counter_->Count(), Aggregated() ? 2 : 1);
    StatusOr<RESTMapping> deployment = Map({"apps", "Deployment"}, {"v1"});
    ASSERT_TRUE(deployment.Ok()) << deployment.GetStatus();
    EXPECT_EQ(counter_->Count(), 2) << "aggregated: the first round had it; legacy: GET /apis/apps/v1";
    for (int i = 0; i < 50; ++i)
        ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    EXPECT_EQ(counter_->Count(), 2);
    StatusOr<RESTMapping> missing = Map({"nope.example.com", "Nope"}, {"v1"});
    EXPECT_TRUE(IsNoMatch(missing.GetStatus())) << missing.GetStatus();
}

TEST_P(RESTMapperIntegrationTest, CrdsAppearingAndDisappearingAreFollowedWithoutARestart) {
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    StatusOr<RESTMapping> before = Map(kSgp);
    ASSERT_FALSE(before.Ok());
    EXPECT_TRUE(IsNoMatch(before.GetStatus())) << before.GetStatus();

    InstallCrd("manifests/crd/securitygrouppolicies.vpcresources.k8s.aws.yaml",
               "securitygrouppolicies.vpcresources.k8s.aws", "/apis/vpcresources.k8s.aws/v1beta1");
    const int before_lookup = counter_->Count();
    StatusOr<RESTMapping> sgp = Map(kSgp);
    ASSERT_TRUE(sgp.Ok()) << sgp.GetStatus();
    EXPECT_EQ(sgp->resource, (GroupVersionResource{"vpcresources.k8s.aws", "v1beta1", "securitygrouppolicies"}));
    EXPECT_TRUE(sgp->Namespaced());
    EXPECT_EQ(counter_->Count() - before_lookup, Aggregated() ? 1 : 2)
        << "one round: aggregated GET /apis (the core group stays), or the group list + v1beta1";

    // A second version of the group, holding another kind.
    InstallCrd("manifests/crd/cninodes.vpcresources.k8s.aws.yaml", "cninodes.vpcresources.k8s.aws",
               "/apis/vpcresources.k8s.aws/v1alpha1");
    StatusOr<RESTMapping> cni = Map(kCniNode);
    ASSERT_TRUE(cni.Ok()) << cni.GetStatus();
    EXPECT_EQ(cni->resource.version, "v1alpha1");
    EXPECT_FALSE(cni->Namespaced());
    EXPECT_TRUE(Map(kCniNode, {"v1alpha1"}).Ok());
    EXPECT_TRUE(Map(kSgp, {"v1beta1"}).Ok());

    // Deleted: the client drops the group version when its paths answer 404; then NoMatch.
    DeleteCrd("cninodes.vpcresources.k8s.aws", "/apis/vpcresources.k8s.aws/v1alpha1");
    mapper_->Invalidate({"vpcresources.k8s.aws", "v1alpha1"});
    StatusOr<RESTMapping> gone = Map(kCniNode, {"v1alpha1"});
    EXPECT_TRUE(IsNoMatch(gone.GetStatus())) << gone.GetStatus();
    EXPECT_TRUE(Map(kSgp, {"v1beta1"}).Ok()) << "the group's other version stays";

    // Re-created: found again.
    InstallCrd("manifests/crd/cninodes.vpcresources.k8s.aws.yaml", "cninodes.vpcresources.k8s.aws",
               "/apis/vpcresources.k8s.aws/v1alpha1");
    StatusOr<RESTMapping> back = Map(kCniNode);
    EXPECT_TRUE(back.Ok()) << back.GetStatus();

    DeleteCrd("cninodes.vpcresources.k8s.aws", "/apis/vpcresources.k8s.aws/v1alpha1");
    DeleteCrd("securitygrouppolicies.vpcresources.k8s.aws", "/apis/vpcresources.k8s.aws/v1beta1");
}

TEST_P(RESTMapperIntegrationTest, SixteenThreadsResolvingANewKindCostOneRound) {
    auto guard = boost::asio::make_work_guard(io_);
    std::vector<std::thread> loop;
    for (int i = 0; i < 2; ++i)
        loop.emplace_back([this] { io_.run(); });
    std::barrier start(16);
    std::atomic<int> ok = 0;
    std::vector<std::thread> lookups;
    for (int i = 0; i < 16; ++i) {
        lookups.emplace_back([&] {
            start.arrive_and_wait();
            StatusOr<RESTMapping> m = RunOn(
                io_.get_executor(),
                mapper_->RESTMapping(Context::WithTimeout(Context::Background(), 30s), {"apps", "Deployment"}, {"v1"}));
            if (m.Ok())
                ++ok;
        });
    }
    for (auto& t : lookups)
        t.join();
    guard.reset();
    for (auto& t : loop)
        t.join();
    EXPECT_EQ(ok, 16);
    EXPECT_EQ(counter_->Count(), Aggregated() ? 2 : 1);
}

// A CRD with two served versions of one kind: the preferred one answers a versionless lookup, and
// a version that stops being served is dropped, then found again when served again.
constexpr char kWidgetCrd[] = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.ctrl.io
spec:
  group: example.ctrl.io
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
  - name: v1beta1
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
)";

void SetWidgetV1beta1Served(bool served) {
    RunKubectl({"patch", "crd", "widgets.example.ctrl.io", "--type=json", "-p",
                std::string(R"([{"op":"replace","path":"/spec/versions/1/served","value":)") +
                    (served ? "true" : "false") + "}]"});
    const auto shown = [&] {
        StatusOr<ctrl::testing::CommandResult> got =
            ctrl::testing::Kubectl(Kubeconfig(), {"get", "--raw", "/apis/example.ctrl.io/v1beta1"}, 30s);
        return got.Ok() && (got->exit_code == 0) == served;
    };
    EXPECT_TRUE(ctrl::testing::Eventually(shown, ctrl::testing::kTestWait, 100ms))
        << "v1beta1 served=" << served << " never showed in discovery";
}

TEST_P(RESTMapperIntegrationTest, PreferredVersionAndVersionsNoLongerServed) {
    StatusOr<ctrl::testing::CommandResult> applied =
        ctrl::testing::Kubectl(Kubeconfig(), {"apply", "-f", "-"}, 60s, kWidgetCrd);
    ASSERT_TRUE(applied.Ok()) << applied.GetStatus();
    ASSERT_EQ(applied->exit_code, 0) << applied->err;
    RunKubectl({"wait", "--for=condition=Established", "--timeout=60s", "crd/widgets.example.ctrl.io"});
    RunKubectl({"get", "--raw", "/apis/example.ctrl.io/v1beta1"});
    const GroupKind widget{"example.ctrl.io", "Widget"};

    StatusOr<RESTMapping> preferred = Map(widget);
    ASSERT_TRUE(preferred.Ok()) << preferred.GetStatus();
    EXPECT_EQ(preferred->resource.version, "v1");
    EXPECT_TRUE(Map(widget, {"v1beta1"}).Ok());

    SetWidgetV1beta1Served(false);
    mapper_->Invalidate({"example.ctrl.io", "v1beta1"});  // as the client does on a 404 for its path
    StatusOr<RESTMapping> unserved = Map(widget, {"v1beta1"});
    EXPECT_TRUE(IsNoMatch(unserved.GetStatus())) << unserved.GetStatus();
    StatusOr<RESTMapping> still = Map(widget);
    ASSERT_TRUE(still.Ok()) << still.GetStatus();
    EXPECT_EQ(still->resource.version, "v1");

    SetWidgetV1beta1Served(true);
    StatusOr<RESTMapping> served_again = Map(widget, {"v1beta1"});
    EXPECT_TRUE(served_again.Ok()) << served_again.GetStatus();
    DeleteCrd("widgets.example.ctrl.io", "/apis/example.ctrl.io/v1");
}

TEST_P(RESTMapperIntegrationTest, MissesOfAKindThatDoesNotExistAreBounded) {
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    const int before = counter_->Count();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 100; ++i)
        ASSERT_TRUE(IsNoMatch(Map({"nope.example.com", "Nope"}, {"v1"}).GetStatus()));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // After the first round, a round is 1 request: aggregated GET /apis, or GET /apis/nope.example.com/v1.
    const int per_round = 1;
    const int bound = (LazyRESTMapperOptions{}.rediscovery_burst + 1 + static_cast<int>(seconds)) * per_round;
    EXPECT_LE(counter_->Count() - before, bound) << "100 misses in " << seconds << " s";
    EXPECT_GE(counter_->Count() - before, per_round);
}

TEST_P(RESTMapperIntegrationTest, EveryRequestAndLookupIsCounted) {
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    ASSERT_TRUE(IsNoMatch(Map({"nope.example.com", "Nope"}, {"v1"}).GetStatus()));
    const std::string text = registry_.SerializeText();
    EXPECT_THAT(text, ::testing::HasSubstr("ctrl_restmapper_lookups_total{result=\"hit\"} 1"));
    EXPECT_THAT(text, ::testing::HasSubstr("ctrl_restmapper_lookups_total{result=\"miss_resolved\"} 1"));
    EXPECT_THAT(text, ::testing::HasSubstr("ctrl_restmapper_lookups_total{result=\"no_match\"} 1"));
    if (Aggregated()) {
        // The first round (GET /api, GET /apis), then GET /apis for the miss of a named group.
        EXPECT_THAT(
            text, ::testing::HasSubstr("ctrl_discovery_requests_total{path_kind=\"aggregated\",result=\"success\"} 3"));
    } else {
        EXPECT_THAT(text, ::testing::HasSubstr(
                              "ctrl_discovery_requests_total{path_kind=\"group_version\",result=\"success\"} 1"));
        EXPECT_THAT(text, ::testing::HasSubstr(
                              "ctrl_discovery_requests_total{path_kind=\"group_version\",result=\"not_found\"} 1"));
    }
    EXPECT_EQ(counter_->Count(), Aggregated() ? 3 : 2);
}

// Faults the real server cannot be driven into, from the scripted server: a 503 and a dropped
// connection during discovery are Unavailable, never NoMatch; the next round recovers.
TEST(RESTMapperFaultTest, ServerErrorsDuringDiscoveryAreUnavailableNeverNoMatch) {
    using ctrl::testing::FakeResponse;
    auto server = ctrl::testing::FakeApiServer::Start();
    ASSERT_TRUE(server.Ok()) << server.GetStatus();
    const std::string group_version_path = "/apis/vpcresources.k8s.aws/v1beta1";
    (*server)->Handle(
        {.method = "GET", .path = group_version_path},
        {FakeResponse::ApiStatus(503, "ServiceUnavailable", "etcd is unavailable"),
         // Twice: the transport replays a GET once when a reused connection drops.
         FakeResponse::Close(), FakeResponse::Close(),
         FakeResponse::Json(200, R"({"kind":"APIResourceList","apiVersion":"v1",)"
                                 R"("groupVersion":"vpcresources.k8s.aws/v1beta1","resources":[)"
                                 R"({"name":"securitygrouppolicies","singularName":"securitygrouppolicy",)"
                                 R"("namespaced":true,"kind":"SecurityGroupPolicy","verbs":["get"]}]})")});
    boost::asio::io_context io;
    metrics::Registry registry;
    rest::Config config;
    config.host = (*server)->Url();
    auto transport = rest::NewTransport(config, io.get_executor());
    ASSERT_TRUE(transport.Ok()) << transport.GetStatus();
    rest::RestClient rest(config, std::move(transport).Value(), nullptr, registry);
    auto discovery = std::make_shared<DiscoveryClient>(rest, DiscoveryOptions{.aggregated = false}, registry);
    LazyRESTMapper mapper(discovery, {}, registry);
    auto lookup = [&] {
        return RunSync(io, mapper.RESTMapping(Context::WithTimeout(Context::Background(), 30s), kSgp, {"v1beta1"}));
    };
    StatusOr<RESTMapping> unavailable = lookup();
    EXPECT_TRUE(IsUnavailable(unavailable.GetStatus())) << unavailable.GetStatus();
    StatusOr<RESTMapping> dropped = lookup();
    EXPECT_TRUE(IsUnavailable(dropped.GetStatus())) << dropped.GetStatus();
    StatusOr<RESTMapping> recovered = lookup();
    ASSERT_TRUE(recovered.Ok()) << recovered.GetStatus();
    EXPECT_EQ(recovered->resource.resource, "securitygrouppolicies");
    EXPECT_EQ((*server)->RequestCount(), 4u);
}

INSTANTIATE_TEST_SUITE_P(Discovery, RESTMapperIntegrationTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                             return info.param ? "Aggregated" : "LegacyForced";
                         });

}  // namespace
}  // namespace ctrl::discovery::test

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ctrl::testing::InstallControlPlaneEnvironment();
    return RUN_ALL_TESTS();
}
