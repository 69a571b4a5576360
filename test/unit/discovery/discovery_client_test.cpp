// The discovery client over a scripted transport (no sockets): which requests it sends, how it reads
// each form of answer, how failures are classified, and what it counts.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/discovery/discovery_client.hpp"
#include "ctrl/discovery/internal/content_type.hpp"
#include "test/support/eventually.hpp"
#include "test/unit/discovery/discovery_test_util.hpp"

namespace ctrl::discovery::test {
namespace {

using ctrl::testing::TestContext;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kAggregatedV2[] = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

// Answers each target with a scripted response or error, and records what was asked.
class ScriptedTransport final : public rest::Transport {
  public:
    void Respond(const std::string& target, int status, std::string content_type, std::string body) {
        rest::HttpResponse response{status, {{"Content-Type", std::move(content_type)}}, std::move(body)};
        answers_[target] = std::move(response);
    }
    void Fail(const std::string& target, Status status) { answers_[target] = std::move(status); }

    Task<StatusOr<rest::HttpResponse>> Send(Context /*ctx*/, rest::HttpRequest request) override {
        requests_.push_back(request);
        auto it = answers_.find(request.target);
        if (it == answers_.end())
            co_return StatusOr<rest::HttpResponse>(InternalError("unscripted request " + request.target));
        co_return it->second;
    }
    Task<StatusOr<std::unique_ptr<rest::BodyStream>>> Open(Context /*ctx*/, rest::HttpRequest /*request*/) override {
        co_return StatusOr<std::unique_ptr<rest::BodyStream>>(InternalError("no streams here"));
    }

    const std::vector<rest::HttpRequest>& Requests() const { return requests_; }
    std::vector<std::string> Targets() const {
        std::vector<std::string> targets;
        for (const rest::HttpRequest& request : requests_)
            targets.push_back(request.target);
        return targets;
    }

  private:
    std::map<std::string, StatusOr<rest::HttpResponse>> answers_;
    std::vector<rest::HttpRequest> requests_;
};

std::string ApiStatus(int code, const std::string& reason, const std::string& message) {
    return R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":")" + message +
           R"(","reason":")" + reason + R"(","code":)" + std::to_string(code) + "}";
}

class DiscoveryClientTest : public ::testing::Test {
  protected:
    DiscoveryClientTest() {
        auto transport = std::make_unique<ScriptedTransport>();
        transport_ = transport.get();
        rest::Config config;
        config.host = "https://apiserver.test:6443";
        rest_ = std::make_unique<rest::RestClient>(config, std::move(transport), nullptr, registry_);
    }

    DiscoveryClient Client(bool aggregated = true) {
        return DiscoveryClient(*rest_, {.aggregated = aggregated}, registry_);
    }
    template <typename T>
    T Run(Task<T> task) {
        return RunSync(io_, std::move(task));
    }
    void ServeAggregated() {
        transport_->Respond("/api", 200, kAggregatedV2, ReadTestdata("api_aggregated.json"));
        transport_->Respond("/apis", 200, kAggregatedV2, ReadTestdata("apis_aggregated.json"));
    }
    void ServeLegacy() {
        transport_->Respond("/api", 200, "application/json", ReadTestdata("api_versions.json"));
        transport_->Respond("/apis", 200, "application/json", ReadTestdata("apis_group_list.json"));
    }
    double Requests(std::string_view path_kind, std::string_view result) {
        return DiscoveryMetrics(registry_).Requests(path_kind, result);
    }

    boost::asio::io_context io_;
    metrics::Registry registry_;
    ScriptedTransport* transport_ = nullptr;
    std::unique_ptr<rest::RestClient> rest_;
};

TEST_F(DiscoveryClientTest, FetchRootAggregatedIsTwoRequests) {
    ServeAggregated();
    DiscoveryClient client = Client();
    StatusOr<RootDiscovery> root = Run(client.FetchRoot(TestContext()));
    ASSERT_TRUE(root.Ok()) << root.GetStatus();
    EXPECT_TRUE(root->aggregated);
    EXPECT_THAT(transport_->Targets(), ElementsAre("/api", "/apis"));
    for (const rest::HttpRequest& request : transport_->Requests())
        EXPECT_EQ(request.FindHeader("Accept").value_or(""), internal::kAggregatedDiscoveryAccept);

    ASSERT_EQ(root->groups.size(), 6u);
    EXPECT_EQ(root->groups[0], (APIGroup{"", {"v1"}}));
    EXPECT_EQ(root->groups[1], (APIGroup{"apps", {"v1"}}));
    EXPECT_EQ(root->groups[3], (APIGroup{"vpcresources.k8s.aws", {"v1beta1", "v1alpha1"}}));
    ASSERT_EQ(root->versions.size(), 8u);
    EXPECT_EQ(root->versions[0].group_version, (GroupVersion{"", "v1"}));
    ASSERT_NE(FindResource(root->versions[0], "pods/status"), nullptr);

    EXPECT_EQ(Requests(kPathKindAggregated, kResultSuccess), 2);
    EXPECT_EQ(DiscoveryMetrics(registry_).Requests(kPathKindLegacyGroupList), 0);
    EXPECT_EQ(DiscoveryMetrics(registry_).request_duration_seconds.WithLabelValues({"aggregated"}).SampleCount(), 2u);
}

TEST_F(DiscoveryClientTest, FetchRootSideIsOneRequestForOneSide) {
    ServeAggregated();
    DiscoveryClient client = Client();
    StatusOr<RootDiscovery> named = Run(client.FetchRootSide(TestContext(), /*core=*/false));
    ASSERT_TRUE(named.Ok()) << named.GetStatus();
    EXPECT_TRUE(named->aggregated);
    EXPECT_THAT(transport_->Targets(), ElementsAre("/apis"));
    ASSERT_EQ(named->groups.size(), 5u);
    EXPECT_EQ(named->groups[0], (APIGroup{"apps", {"v1"}}));
    EXPECT_EQ(named->versions.size(), 7u);
    StatusOr<RootDiscovery> core = Run(client.FetchRootSide(TestContext(), /*core=*/true));
    ASSERT_TRUE(core.Ok()) << core.GetStatus();
    EXPECT_THAT(transport_->Targets(), ElementsAre("/apis", "/api"));
    ASSERT_EQ(core->groups.size(), 1u);
    EXPECT_EQ(core->groups[0], (APIGroup{"", {"v1"}}));
    ASSERT_EQ(core->versions.size(), 1u);
    EXPECT_EQ(Requests(kPathKindAggregated, kResultSuccess), 2);

    transport_->Respond("/apis", 200, "application/json", ReadTestdata("apis_group_list.json"));
    StatusOr<RootDiscovery> legacy = Run(client.FetchRootSide(TestContext(), /*core=*/false));
    ASSERT_TRUE(legacy.Ok()) << legacy.GetStatus();
    EXPECT_FALSE(legacy->aggregated);
    EXPECT_TRUE(legacy->versions.empty());
    EXPECT_FALSE(legacy->groups.empty());
}

TEST_F(DiscoveryClientTest, FetchRootFromAServerWithoutAggregatedDiscovery) {
    ServeLegacy();
    DiscoveryClient client = Client();
    StatusOr<RootDiscovery> root = Run(client.FetchRoot(TestContext()));
    ASSERT_TRUE(root.Ok()) << root.GetStatus();
    EXPECT_FALSE(root->aggregated);
    EXPECT_TRUE(root->versions.empty());
    ASSERT_EQ(root->groups.size(), 6u);
    EXPECT_EQ(root->groups[0], (APIGroup{"", {"v1"}}));
    EXPECT_EQ(root->groups[4], (APIGroup{"vpcresources.k8s.aws", {"v1beta1", "v1alpha1"}}));
    EXPECT_EQ(Requests(kPathKindAggregated, kResultSuccess), 2);
}

TEST_F(DiscoveryClientTest, FetchRootWithAggregatedOffAsksForPlainJson) {
    ServeLegacy();
    DiscoveryClient client = Client(/*aggregated=*/false);
    StatusOr<RootDiscovery> root = Run(client.FetchRoot(TestContext()));
    ASSERT_TRUE(root.Ok()) << root.GetStatus();
    EXPECT_FALSE(root->aggregated);
    for (const rest::HttpRequest& request : transport_->Requests())
        EXPECT_EQ(request.FindHeader("Accept").value_or(""), "application/json");
    EXPECT_EQ(Requests(kPathKindLegacyGroupList, kResultSuccess), 2);
    EXPECT_EQ(DiscoveryMetrics(registry_).Requests(kPathKindAggregated), 0);
}

TEST_F(DiscoveryClientTest, MixedAnswersAreNotAggregated) {
    transport_->Respond("/api", 200, kAggregatedV2, ReadTestdata("api_aggregated.json"));
    transport_->Respond("/apis", 200, "application/json", ReadTestdata("apis_group_list.json"));
    DiscoveryClient client = Client();
    StatusOr<RootDiscovery> root = Run(client.FetchRoot(TestContext()));
    ASSERT_TRUE(root.Ok()) << root.GetStatus();
    EXPECT_FALSE(root->aggregated);
    EXPECT_TRUE(root->versions.empty());
    EXPECT_EQ(root->groups.size(), 6u);
}

TEST_F(DiscoveryClientTest, FetchRootFailureKeepsItsCode) {
    transport_->Respond("/api", 200, kAggregatedV2, ReadTestdata("api_aggregated.json"));
    transport_->Respond("/apis", 503, "application/json", ApiStatus(503, "ServiceUnavailable", "etcd is down"));
    DiscoveryClient client = Client();
    StatusOr<RootDiscovery> root = Run(client.FetchRoot(TestContext()));
    ASSERT_FALSE(root.Ok());
    EXPECT_TRUE(IsUnavailable(root.GetStatus())) << root.GetStatus();
    EXPECT_THAT(root.GetStatus().Message(), HasSubstr("etcd is down"));
    EXPECT_EQ(Requests(kPathKindAggregated, kResultSuccess), 1);
    EXPECT_EQ(Requests(kPathKindAggregated, kResultError), 1);
}

TEST_F(DiscoveryClientTest, FetchRootStopsAtTheFirstFailure) {
    transport_->Fail("/api", UnavailableError("connection refused"));
    DiscoveryClient client = Client();
    StatusOr<RootDiscovery> root = Run(client.FetchRoot(TestContext()));
    EXPECT_TRUE(IsUnavailable(root.GetStatus())) << root.GetStatus();
    EXPECT_THAT(transport_->Targets(), ElementsAre("/api"));
    EXPECT_EQ(Requests(kPathKindAggregated, kResultError), 1);
}

TEST_F(DiscoveryClientTest, FetchGroupListIsOneLegacyRequest) {
    ServeLegacy();
    DiscoveryClient client = Client();
    StatusOr<std::vector<APIGroup>> core = Run(client.FetchGroupList(TestContext(), /*core=*/true));
    ASSERT_TRUE(core.Ok()) << core.GetStatus();
    EXPECT_THAT(*core, ElementsAre(APIGroup{"", {"v1"}}));
    StatusOr<std::vector<APIGroup>> named = Run(client.FetchGroupList(TestContext(), /*core=*/false));
    ASSERT_TRUE(named.Ok()) << named.GetStatus();
    EXPECT_EQ(named->size(), 5u);
    EXPECT_THAT(transport_->Targets(), ElementsAre("/api", "/apis"));
    for (const rest::HttpRequest& request : transport_->Requests())
        EXPECT_EQ(request.FindHeader("Accept").value_or(""), "application/json");
    EXPECT_EQ(Requests(kPathKindLegacyGroupList, kResultSuccess), 2);
}

TEST_F(DiscoveryClientTest, FetchGroupVersionPaths) {
    transport_->Respond("/api/v1", 200, "application/json", ReadTestdata("core_v1_resource_list.json"));
    transport_->Respond("/apis/vpcresources.k8s.aws/v1beta1", 200, "application/json",
                        R"({"kind":"APIResourceList","apiVersion":"v1","groupVersion":"vpcresources.k8s.aws/v1beta1",)"
                        R"("resources":[{"name":"securitygrouppolicies","singularName":"securitygrouppolicy",)"
                        R"("namespaced":true,"kind":"SecurityGroupPolicy","verbs":["get","list","watch"]}]})");
    DiscoveryClient client = Client();
    StatusOr<GroupVersionResources> core = Run(client.FetchGroupVersion(TestContext(), {"", "v1"}));
    ASSERT_TRUE(core.Ok()) << core.GetStatus();
    EXPECT_EQ(core->group_version, (GroupVersion{"", "v1"}));
    EXPECT_NE(FindResource(*core, "pods"), nullptr);
    StatusOr<GroupVersionResources> sgp =
        Run(client.FetchGroupVersion(TestContext(), {"vpcresources.k8s.aws", "v1beta1"}));
    ASSERT_TRUE(sgp.Ok()) << sgp.GetStatus();
    ASSERT_EQ(sgp->resources.size(), 1u);
    EXPECT_EQ(sgp->resources[0].kind, "SecurityGroupPolicy");
    EXPECT_THAT(transport_->Targets(), ElementsAre("/api/v1", "/apis/vpcresources.k8s.aws/v1beta1"));
    EXPECT_EQ(transport_->Requests()[0].FindHeader("Accept").value_or(""), "application/json");
    EXPECT_EQ(Requests(kPathKindGroupVersion, kResultSuccess), 2);
}

TEST_F(DiscoveryClientTest, FetchGroupVersionNotServedIsNotFound) {
    transport_->Respond("/apis/vpcresources.k8s.aws/v1", 404, "application/json",
                        ApiStatus(404, "NotFound", "the server could not find the requested resource"));
    DiscoveryClient client = Client();
    StatusOr<GroupVersionResources> missing =
        Run(client.FetchGroupVersion(TestContext(), {"vpcresources.k8s.aws", "v1"}));
    ASSERT_FALSE(missing.Ok());
    EXPECT_TRUE(IsNotFound(missing.GetStatus())) << missing.GetStatus();
    EXPECT_EQ(missing.GetStatus().HttpCode(), 404);
    EXPECT_THAT(missing.GetStatus().Message(), HasSubstr("group version \"vpcresources.k8s.aws/v1\""));
    EXPECT_EQ(Requests(kPathKindGroupVersion, kResultNotFound), 1);
    EXPECT_EQ(Requests(kPathKindGroupVersion, kResultError), 0);
}

TEST_F(DiscoveryClientTest, FetchGroupVersionFailuresAreNeverNotFound) {
    transport_->Respond("/apis/metrics.k8s.io/v1beta1", 503, "application/json",
                        ApiStatus(503, "ServiceUnavailable", "the server is currently unable to handle the request"));
    transport_->Fail("/apis/apps/v1", UnavailableError("connection reset by peer"));
    transport_->Fail("/apis/batch/v1", TimeoutError("deadline exceeded"));
    transport_->Respond("/apis/broken.io/v1", 200, "application/json", R"({"groupVersion":"broken.io/v1")");
    DiscoveryClient client = Client();
    StatusOr<GroupVersionResources> unavailable =
        Run(client.FetchGroupVersion(TestContext(), {"metrics.k8s.io", "v1beta1"}));
    EXPECT_TRUE(IsUnavailable(unavailable.GetStatus())) << unavailable.GetStatus();
    EXPECT_THAT(unavailable.GetStatus().Message(), HasSubstr("metrics.k8s.io/v1beta1"));
    StatusOr<GroupVersionResources> dropped = Run(client.FetchGroupVersion(TestContext(), {"apps", "v1"}));
    EXPECT_TRUE(IsUnavailable(dropped.GetStatus())) << dropped.GetStatus();
    StatusOr<GroupVersionResources> timeout = Run(client.FetchGroupVersion(TestContext(), {"batch", "v1"}));
    EXPECT_TRUE(IsTimeout(timeout.GetStatus())) << timeout.GetStatus();
    StatusOr<GroupVersionResources> malformed = Run(client.FetchGroupVersion(TestContext(), {"broken.io", "v1"}));
    EXPECT_TRUE(IsBadRequest(malformed.GetStatus())) << malformed.GetStatus();
    EXPECT_THAT(malformed.GetStatus().Message(), HasSubstr("GET /apis/broken.io/v1"));
    EXPECT_EQ(Requests(kPathKindGroupVersion, kResultError), 4);
    EXPECT_EQ(Requests(kPathKindGroupVersion, kResultNotFound), 0);
}

TEST_F(DiscoveryClientTest, AMalformedRootDocumentIsBadRequest) {
    transport_->Respond("/api", 200, kAggregatedV2, R"({"kind":"APIGroupDiscoveryList","items":[{"versions":[{}]}]})");
    DiscoveryClient client = Client();
    StatusOr<RootDiscovery> root = Run(client.FetchRoot(TestContext()));
    ASSERT_FALSE(root.Ok());
    EXPECT_TRUE(IsBadRequest(root.GetStatus())) << root.GetStatus();
    EXPECT_THAT(root.GetStatus().Message(), HasSubstr("GET /api): items[0](\"\").versions[0].version"));
    EXPECT_EQ(Requests(kPathKindAggregated, kResultError), 1);
}

TEST_F(DiscoveryClientTest, InvalidGroupVersionsSendNothing) {
    DiscoveryClient client = Client();
    for (GroupVersion gv : {GroupVersion{"apps", ""}, GroupVersion{"apps/v1", "v1"}, GroupVersion{"", "v1?watch=1"},
                            GroupVersion{"..", "v1"}, GroupVersion{"a", "v 1"}}) {
        StatusOr<GroupVersionResources> result = Run(client.FetchGroupVersion(TestContext(), gv));
        EXPECT_TRUE(IsBadRequest(result.GetStatus())) << gv.String() << ": " << result.GetStatus();
    }
    EXPECT_TRUE(transport_->Requests().empty());
    EXPECT_EQ(DiscoveryMetrics(registry_).Requests(kPathKindGroupVersion), 0);
}

TEST_F(DiscoveryClientTest, EverySeriesIsPresetToZero) {
    DiscoveryClient client = Client();
    const std::string text = registry_.SerializeText();
    for (const char* path_kind : {"aggregated", "legacy_group_list", "group_version"}) {
        for (const char* result : {"success", "not_found", "error"}) {
            EXPECT_THAT(text, HasSubstr(std::string("ctrl_discovery_requests_total{path_kind=\"") + path_kind +
                                        "\",result=\"" + result + "\"} 0"));
        }
        EXPECT_THAT(text, HasSubstr(std::string("ctrl_discovery_request_duration_seconds_count{path_kind=\"") +
                                    path_kind + "\"} 0"));
    }
    EXPECT_THAT(text, Not(HasSubstr("ctrl_discovery_requests_total{path_kind=\"aggregated\",result=\"success\"} 1")));
}

}  // namespace
}  // namespace ctrl::discovery::test
