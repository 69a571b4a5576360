// Faults a real API server cannot be driven into, on both transports, with the scripted fake
// server (issue 3, acceptance 4): 429 storms with Retry-After, a watch dropped mid-stream, a
// malformed event line, a watch ERROR 410, a slow body that hits the timeout, a proxy's HTML.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ctrl/rest/api_status.hpp"
#include "test/integration/rest/rest_test_util.hpp"
#include "test/support/eventually.hpp"
#include "test/support/fake_api_server.hpp"

namespace ctrl::rest::test {
namespace {

using ctrl::testing::FakeApiServer;
using ctrl::testing::FakeChunk;
using ctrl::testing::FakeEnd;
using ctrl::testing::FakeResponse;
using ctrl::testing::TestContext;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

constexpr char kPodEvent[] =
    R"({"type":"ADDED","object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"n",)"
    R"("resourceVersion":"5"}}})"
    "\n";

// Opens a watch on path and reads events until an error or the end of the stream.
Task<std::pair<std::vector<WatchEvent>, Status>> ReadWatch(RestClient& client, std::string path) {
    const Context ctx = TestContext();
    std::vector<WatchEvent> events;
    StatusOr<HttpRequest> request = RequestBuilder("GET").AbsPath(path).Build();
    if (!request.Ok())
        co_return std::pair{std::move(events), request.GetStatus()};
    StatusOr<std::unique_ptr<WatchStream>> stream = co_await client.Watch(ctx, *request);
    if (!stream.Ok())
        co_return std::pair{std::move(events), stream.GetStatus()};
    while (true) {
        StatusOr<std::optional<WatchEvent>> event = co_await (*stream)->Next(ctx);
        if (!event.Ok())
            co_return std::pair{std::move(events), event.GetStatus()};
        if (!*event)
            co_return std::pair{std::move(events), OkStatus()};
        events.push_back(std::move(**event));
    }
}

class FaultTest : public ::testing::TestWithParam<TransportKind> {
  protected:
    void SetUp() override {
        auto server = FakeApiServer::Start();
        ASSERT_TRUE(server.Ok()) << server.GetStatus();
        server_ = std::move(server).Value();
        Config config;
        config.host = server_->Url();
        config.transport = GetParam();
        auto transport = NewTransport(config, io_.get_executor());
        ASSERT_TRUE(transport.Ok()) << transport.GetStatus();
        client_ = std::make_unique<RestClient>(config, std::move(transport).Value(), nullptr, registry_);
    }

    StatusOr<HttpResponse> Get(const std::string& path, std::chrono::milliseconds timeout = 0ms) {
        StatusOr<HttpRequest> request = RequestBuilder("GET").AbsPath(path).Timeout(timeout).Build();
        EXPECT_TRUE(request.Ok());
        return RunSync(io_, client_->Do(TestContext(), *request));
    }

    // Opens a watch on path and reads events until an error or the end; returns them and the
    // error that ended the stream (OK at a clean end).
    std::pair<std::vector<WatchEvent>, Status> Watch(const std::string& path) {
        return RunSync(io_, ReadWatch(*client_, path));
    }

    boost::asio::io_context io_;
    metrics::Registry registry_;
    std::unique_ptr<FakeApiServer> server_;
    std::unique_ptr<RestClient> client_;
};

TEST_P(FaultTest, TooManyRequestsIsRetriedAfterRetryAfter) {
    server_->Handle({.method = "GET", .path = "/api/v1/pods"},
                    {FakeResponse::TooManyRequests(1), FakeResponse::TooManyRequests(1),
                     FakeResponse::Json(200, R"({"kind":"PodList","apiVersion":"v1","items":[]})")});
    const auto start = std::chrono::steady_clock::now();
    StatusOr<HttpResponse> response = Get("/api/v1/pods");
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->status, 200);
    EXPECT_EQ(server_->RequestCount(), 3u);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 2s) << "Retry-After: 1, twice";
    EXPECT_THAT(registry_.SerializeText(), HasSubstr("rest_client_request_retries_total{code=\"429\""));
}

TEST_P(FaultTest, RetriesAreBoundedAtTen) {
    server_->Handle({.method = "GET", .path = "/api/v1/pods"}, {FakeResponse::TooManyRequests(0)});
    StatusOr<HttpResponse> response = Get("/api/v1/pods");
    ASSERT_FALSE(response.Ok());
    EXPECT_TRUE(IsTooManyRequests(response.GetStatus())) << response.GetStatus();
    EXPECT_EQ(server_->RequestCount(), 11u) << "the first try and 10 retries";
}

TEST_P(FaultTest, ServerErrorWithoutRetryAfterIsNotRetried) {
    server_->Handle({.method = "GET", .path = "/api/v1/pods"},
                    {FakeResponse::ApiStatus(503, "ServiceUnavailable", "etcd is down")});
    StatusOr<HttpResponse> response = Get("/api/v1/pods");
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_EQ(server_->RequestCount(), 1u);
}

TEST_P(FaultTest, ProxyHtmlGivesTheHttpCodeAndASnippet) {
    server_->Handle({.method = "GET", .path = "/version"},
                    {FakeResponse::Html(502, "<html><body><h1>502 Bad Gateway</h1></body></html>")});
    StatusOr<HttpResponse> response = Get("/version");
    ASSERT_FALSE(response.Ok());
    EXPECT_EQ(response.GetStatus().HttpCode(), 502);
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("502 Bad Gateway"));
}

// Issue 17, part 5: a login page answered with 200 text/html, to a request and to a watch, is an error
// naming the URL, the code and that the body is not JSON (not a JSON parse error without context).
TEST_P(FaultTest, LoginPageWith200IsAnErrorNamingTheUrlAndThatTheBodyIsNotJson) {
    const std::string page = "<!DOCTYPE html><html><head><title>Sign in - Corp SSO</title></head></html>";
    server_->Handle({.method = "GET", .path = "/api/v1/pods"}, {FakeResponse::Html(200, page)});
    StatusOr<HttpResponse> response = Get("/api/v1/pods");
    ASSERT_FALSE(response.Ok()) << "an HTML page was taken as an answer";
    EXPECT_EQ(response.GetStatus().HttpCode(), 200);
    const std::string message = response.GetStatus().Message();
    EXPECT_THAT(message, HasSubstr("GET " + server_->Url() + "/api/v1/pods"));
    EXPECT_THAT(message, HasSubstr("answered HTTP 200 with a body that is not JSON (Content-Type text/html"));
    EXPECT_THAT(message, HasSubstr("Sign in - Corp SSO"));

    auto [events, status] = Watch("/api/v1/pods?watch=true");
    EXPECT_TRUE(events.empty());
    EXPECT_THAT(status.Message(), HasSubstr("GET " + server_->Url() + "/api/v1/pods?watch=true")) << status;
    EXPECT_THAT(status.Message(), HasSubstr("answered HTTP 200 with a body that is not JSON")) << status;
}

TEST_P(FaultTest, ProxyErrorPageNamesTheUrlTheCodeAndThatTheBodyIsNotJson) {
    server_->Handle({.method = "GET", .path = "/api/v1/pods"},
                    {FakeResponse::Html(502, "<html><body><h1>502 Bad Gateway</h1></body></html>")});
    StatusOr<HttpResponse> response = Get("/api/v1/pods");
    ASSERT_FALSE(response.Ok());
    EXPECT_EQ(response.GetStatus().HttpCode(), 502);
    EXPECT_THAT(response.GetStatus().Message(),
                HasSubstr("GET " + server_->Url() +
                          "/api/v1/pods: the server answered HTTP 502 with a body that is "
                          "not JSON (Content-Type text/html"));
    auto [events, status] = Watch("/api/v1/pods?watch=true");
    EXPECT_EQ(status.HttpCode(), 502) << status;
    EXPECT_THAT(status.Message(), HasSubstr("not JSON")) << status;
}

// The whole body would take 100 s, past the test's wait: only the request timeout ends it sooner.
TEST_P(FaultTest, SlowBodyHitsTheRequestTimeout) {
    server_->Handle({.method = "GET", .path = "/version"}, {FakeResponse::Slow(std::string(1000, 'x'), 100ms)});
    StatusOr<HttpResponse> response = Get("/version", 500ms);
    ASSERT_FALSE(response.Ok());
    EXPECT_TRUE(IsTimeout(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("request timeout"));
}

TEST_P(FaultTest, WatchDroppedMidStreamIsAnError) {
    server_->Handle(
        {.method = "GET", .path = "/api/v1/pods"},
        {FakeResponse::Stream({{.data = kPodEvent}, {.delay = 20ms, .data = R"({"type":"MODIFI)"}}, FakeEnd::kDrop)});
    auto [events, status] = Watch("/api/v1/pods?watch=true");
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].object.Name(), "a");
    EXPECT_TRUE(IsUnavailable(status)) << status;
}

TEST_P(FaultTest, MalformedEventLineIsAnError) {
    server_->Handle({.method = "GET", .path = "/api/v1/pods"},
                    {FakeResponse::Stream({{.data = kPodEvent}, {.data = "this is not json\n"}}, FakeEnd::kHang)});
    auto [events, status] = Watch("/api/v1/pods?watch=true");
    EXPECT_EQ(events.size(), 1u);
    EXPECT_TRUE(IsBadRequest(status)) << status;
}

TEST_P(FaultTest, WatchErrorEventCarriesGone) {
    server_->Handle(
        {.method = "GET", .path = "/api/v1/pods"},
        {FakeResponse::Stream({{.data = R"({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1",)"
                                        R"json("status":"Failure","message":"too old resource version: 1 (9)",)json"
                                        R"("reason":"Expired","code":410}})"
                                        "\n"}})});
    auto [events, status] = Watch("/api/v1/pods?watch=true");
    EXPECT_TRUE(status.Ok()) << status;
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].type, WatchEvent::Type::kError);
    EXPECT_TRUE(IsGone(StatusFromApiStatus(events[0].object, 0)));
}

TEST_P(FaultTest, WatchRefusedWithAStatusIsThatStatus) {
    server_->Handle({.method = "GET", .path = "/api/v1/pods"},
                    {FakeResponse::ApiStatus(403, "Forbidden", "pods is forbidden: User \"x\" cannot watch")});
    auto [events, status] = Watch("/api/v1/pods?watch=true");
    EXPECT_TRUE(events.empty());
    EXPECT_TRUE(IsForbidden(status)) << status;
}

INSTANTIATE_TEST_SUITE_P(Transports, FaultTest, ::testing::Values(TransportKind::kBeast, TransportKind::kCppRest),
                         TransportName);

}  // namespace
}  // namespace ctrl::rest::test
