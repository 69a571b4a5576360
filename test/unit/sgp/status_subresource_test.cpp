// StatusSubresourceProbe over a scripted transport (no sockets): the status subresource is present
// when the group version's discovery document lists "securitygrouppolicies/status", absent when it
// does not (AWS's CRD), unknown while the kind is not served; a failure to ask keeps the last answer.

#include "controllers/sgp/status_subresource.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::sgp {
namespace {

using ctrl::testing::TestContext;
using ::testing::HasSubstr;

constexpr char kTarget[] = "/apis/vpcresources.k8s.aws/v1beta1";

// The document with the SecurityGroupPolicy resource and, when with_status, its status subresource.
std::string GroupVersionDocument(bool with_status) {
    std::string resources = R"({"name":"securitygrouppolicies","singularName":"securitygrouppolicy","namespaced":true,)"
                            R"("kind":"SecurityGroupPolicy","verbs":["get","list","watch","patch"]})";
    if (with_status)
        resources += R"(,{"name":"securitygrouppolicies/status","singularName":"","namespaced":true,)"
                     R"("kind":"SecurityGroupPolicy","verbs":["get","patch","update"]})";
    return R"({"kind":"APIResourceList","apiVersion":"v1","groupVersion":"vpcresources.k8s.aws/v1beta1",)"
           R"("resources":[)" +
           resources + "]}";
}

// Answers kTarget with what the test set last; counts the requests.
class ScriptedTransport final : public rest::Transport {
  public:
    StatusOr<rest::HttpResponse> answer = InternalError("unscripted");
    int requests = 0;

    Task<StatusOr<rest::HttpResponse>> Send(Context /*ctx*/, rest::HttpRequest request) override {
        ++requests;
        if (request.target != kTarget)
            co_return StatusOr<rest::HttpResponse>(InternalError("unexpected request " + request.target));
        co_return answer;
    }
    Task<StatusOr<std::unique_ptr<rest::BodyStream>>> Open(Context /*ctx*/, rest::HttpRequest /*request*/) override {
        co_return StatusOr<std::unique_ptr<rest::BodyStream>>(InternalError("no streams here"));
    }
};

class StatusSubresourceTest : public ::testing::Test {
  protected:
    StatusSubresourceTest() {
        auto transport = std::make_unique<ScriptedTransport>();
        transport_ = transport.get();
        rest::Config config;
        config.host = "https://apiserver.test:6443";
        rest_ = std::make_unique<rest::RestClient>(config, std::move(transport), nullptr, registry_);
        probe_ = std::make_unique<StatusSubresourceProbe>(
            std::make_shared<discovery::DiscoveryClient>(*rest_, discovery::DiscoveryOptions{}, registry_),
            log::Logger());
    }
    void Serve(int status, std::string body) {
        transport_->answer = rest::HttpResponse{status, {{"Content-Type", "application/json"}}, std::move(body)};
    }
    StatusOr<StatusSubresource> Refresh() { return RunSync(io_, probe_->Refresh(TestContext())); }
    StatusOr<StatusSubresource> Get() { return RunSync(io_, probe_->Get(TestContext())); }

    boost::asio::io_context io_;
    metrics::Registry registry_;
    ScriptedTransport* transport_ = nullptr;
    std::unique_ptr<rest::RestClient> rest_;
    std::unique_ptr<StatusSubresourceProbe> probe_;
};

TEST_F(StatusSubresourceTest, AwsCrdHasNoStatusSubresourceAndTheDetailSaysWhereStateGoes) {
    EXPECT_EQ(probe_->Last(), StatusSubresource::kUnknown);
    EXPECT_EQ(probe_->Detail(), "");
    Serve(200, GroupVersionDocument(/*with_status=*/false));
    EXPECT_EQ(Get().ValueOr(StatusSubresource::kUnknown), StatusSubresource::kAbsent);
    EXPECT_EQ(probe_->Last(), StatusSubresource::kAbsent);
    EXPECT_THAT(probe_->Detail(), HasSubstr("has no status subresource"));
    EXPECT_THAT(probe_->Detail(), HasSubstr("Events (PolicyValid, PolicyInvalid)"));
    // Get answers from what it knows: no second request.
    EXPECT_EQ(Get().ValueOr(StatusSubresource::kUnknown), StatusSubresource::kAbsent);
    EXPECT_EQ(transport_->requests, 1);
}

TEST_F(StatusSubresourceTest, TheProjectsCrdHasOneAndARefreshFollowsACrdReplaced) {
    Serve(200, GroupVersionDocument(/*with_status=*/true));
    EXPECT_EQ(Refresh().ValueOr(StatusSubresource::kUnknown), StatusSubresource::kPresent);
    EXPECT_EQ(probe_->Detail(), "");
    Serve(200, GroupVersionDocument(/*with_status=*/false));
    EXPECT_EQ(Refresh().ValueOr(StatusSubresource::kUnknown), StatusSubresource::kAbsent);
    Serve(200, GroupVersionDocument(/*with_status=*/true));
    EXPECT_EQ(Refresh().ValueOr(StatusSubresource::kUnknown), StatusSubresource::kPresent);
    EXPECT_EQ(transport_->requests, 3);
}

TEST_F(StatusSubresourceTest, AKindNotServedIsUnknownAndAFailureKeepsTheLastAnswer) {
    Serve(404, R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404})");
    EXPECT_EQ(Refresh().ValueOr(StatusSubresource::kAbsent), StatusSubresource::kUnknown);
    Serve(200, GroupVersionDocument(/*with_status=*/false));
    ASSERT_EQ(Refresh().ValueOr(StatusSubresource::kUnknown), StatusSubresource::kAbsent);
    transport_->answer = UnavailableError("connection refused");
    const StatusOr<StatusSubresource> failed = Refresh();
    EXPECT_FALSE(failed.Ok());
    EXPECT_THAT(failed.GetStatus().Message(), HasSubstr("status subresource"));
    EXPECT_EQ(probe_->Last(), StatusSubresource::kAbsent) << "a failure to ask is not an answer";
}

}  // namespace
}  // namespace ctrl::sgp
