// The Beast transport's Send against an in-process loopback server: headers, bodies, keep-alive
// reuse, the stale-connection retry, deadlines, cancellation and connection failures.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_future.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/beast_transport.hpp"
#include "test/fake/rest/beast_test_server.hpp"
#include "test/support/eventually.hpp"
#include "test/support/free_port.hpp"

namespace ctrl::rest {
namespace {

using ctrl::testing::kTestWait;
using ctrl::testing::TestContext;
using std::chrono::milliseconds;
using testing::BeastTestServer;
using testing::Get;
using ::testing::HasSubstr;
using testing::Request;
using testing::ServerExchange;

Task<void> RespondOk(ServerExchange& exchange) {
    co_await exchange.Respond(200, "ok:" + exchange.Request().target);
}

class BeastSendTest : public ::testing::Test {
  protected:
    std::unique_ptr<Transport> NewTransport(const std::string& server, TransportOptions options = {}) {
        options.server = server;
        auto transport = NewBeastTransport(io_.get_executor(), std::move(options));
        EXPECT_TRUE(transport.Ok()) << transport.GetStatus();
        return transport.Ok() ? std::move(transport).Value() : nullptr;
    }
    StatusOr<HttpResponse> Send(Transport& transport, HttpRequest request) {
        return Send(TestContext(), transport, std::move(request));
    }
    StatusOr<HttpResponse> Send(Context ctx, Transport& transport, HttpRequest request) {
        return RunSync(io_, transport.Send(std::move(ctx), std::move(request)));
    }

    boost::asio::io_context io_;
};

TEST_F(BeastSendTest, SendsHeadersAndReadsAContentLengthBody) {
    BeastTestServer server([](ServerExchange& exchange) -> Task<void> {
        std::vector<Header> headers{Header{"Audit-Id", "abc"}};
        co_await exchange.Respond(201, "{\"kind\":\"Status\"}", std::move(headers));
    });
    auto transport = NewTransport(server.Url());
    HttpRequest request = Request("POST", "/api/v1/namespaces?dryRun=All", "{\"a\":1}");
    request.SetHeader("Content-Type", "application/json");
    request.SetHeader("Content-Length", "999");  // the transport's business: replaced
    auto response = Send(*transport, request);
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->status, 201);
    EXPECT_EQ(response->body, "{\"kind\":\"Status\"}");
    EXPECT_EQ(response->FindHeader("audit-id"), "abc");

    ASSERT_EQ(server.Requests().size(), 1u);
    const auto received = server.Requests()[0];
    EXPECT_EQ(received.method, "POST");
    EXPECT_EQ(received.target, "/api/v1/namespaces?dryRun=All");
    EXPECT_EQ(received.body, "{\"a\":1}");
    EXPECT_EQ(received.FindHeader("Content-Length"), "7");
    EXPECT_EQ(received.FindHeader("Content-Type"), "application/json");
    EXPECT_EQ(received.FindHeader("User-Agent"), "ctrl/" CTRL_VERSION);
    EXPECT_EQ(received.FindHeader("Host"), server.Url().substr(std::string("http://").size()));
}

TEST_F(BeastSendTest, GetHasNoContentLengthAndKeepsACallersUserAgent) {
    BeastTestServer server(RespondOk);
    TransportOptions options;
    options.user_agent = "my-operator/1.2";
    auto transport = NewTransport(server.Url(), options);
    HttpRequest request = Get("/version");
    auto response = Send(*transport, request);
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    const auto received = server.Requests().at(0);
    EXPECT_FALSE(received.FindHeader("Content-Length").has_value());
    EXPECT_EQ(received.FindHeader("User-Agent"), "my-operator/1.2");
}

TEST_F(BeastSendTest, ReadsAChunkedBody) {
    BeastTestServer server([](ServerExchange& exchange) -> Task<void> {
        co_await exchange.StartChunked(200);
        co_await exchange.WriteChunk("{\"items\":");
        co_await exchange.WriteChunk("[]}");
        co_await exchange.EndChunks();
    });
    auto transport = NewTransport(server.Url());
    auto response = Send(*transport, Get("/api/v1/pods"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->body, "{\"items\":[]}");
}

TEST_F(BeastSendTest, PrefixesTargetsWithTheServersPath) {
    BeastTestServer server(RespondOk);
    auto transport = NewTransport(server.Url() + "/k8s/clusters/c-1/");
    auto response = Send(*transport, Get("/version"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->body, "ok:/k8s/clusters/c-1/version");
}

TEST_F(BeastSendTest, ReusesOneKeepAliveConnection) {
    BeastTestServer server(RespondOk);
    auto transport = NewTransport(server.Url());
    for (int i = 0; i < 10; ++i) {
        auto response = Send(*transport, Get("/version"));
        ASSERT_TRUE(response.Ok()) << response.GetStatus();
    }
    EXPECT_EQ(server.Connections(), 1);
}

TEST_F(BeastSendTest, DoesNotReuseAConnectionTheServerClosed) {
    BeastTestServer server([](ServerExchange& exchange) -> Task<void> {
        std::vector<Header> headers{Header{"Connection", "close"}};
        co_await exchange.Respond(200, "bye", std::move(headers));
        exchange.CloseAfter();
    });
    auto transport = NewTransport(server.Url());
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE(Send(*transport, Get("/version")).Ok());
    EXPECT_EQ(server.Connections(), 3);
    EXPECT_EQ(server.Requests().size(), 3u);
}

// The server reads the second request on the kept-alive connection and closes it unanswered, as a
// server whose idle timeout raced the request does.
Task<void> DropTheSecondRequest(ServerExchange& exchange) {
    if (exchange.Request().connection == 1 && exchange.Request().target == "/second") {
        exchange.CloseAfter();
        co_return;
    }
    co_await RespondOk(exchange);
}

TEST_F(BeastSendTest, RetriesAGetOnceWhenAReusedConnectionDiesUnanswered) {
    BeastTestServer server(DropTheSecondRequest);
    auto transport = NewTransport(server.Url());
    ASSERT_TRUE(Send(*transport, Get("/first")).Ok());
    auto response = Send(*transport, Get("/second"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->body, "ok:/second");
    EXPECT_EQ(server.Connections(), 2);
    ASSERT_EQ(server.Requests().size(), 3u);
    EXPECT_EQ(server.Requests()[2].connection, 2);
}

TEST_F(BeastSendTest, DoesNotResendAPostTheServerMayHaveSeen) {
    BeastTestServer server(DropTheSecondRequest);
    auto transport = NewTransport(server.Url());
    ASSERT_TRUE(Send(*transport, Get("/first")).Ok());
    auto response = Send(*transport, Request("POST", "/second", "{}"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("POST " + server.Url() + "/second"));
    EXPECT_EQ(server.Requests().size(), 2u);
}

TEST_F(BeastSendTest, DoesNotRetryOnAFreshConnection) {
    BeastTestServer server([](ServerExchange& exchange) -> Task<void> {
        exchange.CloseAfter();
        co_return;
    });
    auto transport = NewTransport(server.Url());
    auto response = Send(*transport, Get("/version"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("the server closed the connection"));
    EXPECT_EQ(server.Requests().size(), 1u);
}

// A server that never answers: a request to it ends only by its timeout, deadline or cancel.
Task<void> NeverRespond(ServerExchange& exchange) {
    co_await exchange.Sleep(std::chrono::hours(1));
}

TEST_F(BeastSendTest, RequestTimeoutGivesTimeout) {
    BeastTestServer server(NeverRespond);
    auto transport = NewTransport(server.Url());
    auto response = Send(*transport, Get("/slow", milliseconds(200)));
    EXPECT_TRUE(IsTimeout(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("request timeout of 200ms exceeded"));
}

TEST_F(BeastSendTest, TheEarlierOfContextDeadlineAndTimeoutWins) {
    BeastTestServer server(NeverRespond);
    auto transport = NewTransport(server.Url());
    auto ctx = Context::WithTimeout(Context::Background(), milliseconds(150));
    auto response = Send(ctx, *transport, Get("/slow", milliseconds(5000)));
    EXPECT_TRUE(IsTimeout(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("context deadline exceeded"));
}

// Should the cancel not reach the request, its timeout (the test's wait) ends it with Timeout.
TEST_F(BeastSendTest, CancellingTheContextFromAnotherThreadEndsTheRequest) {
    BeastTestServer server(NeverRespond);
    auto transport = NewTransport(server.Url());
    auto ctx = Context::WithCancel(Context::Background());
    std::thread canceller([ctx] {
        std::this_thread::sleep_for(milliseconds(150));
        ctx.Cancel();
    });
    auto response = Send(ctx, *transport, Get("/slow", kTestWait));
    canceller.join();
    EXPECT_TRUE(IsCancelled(response.GetStatus())) << response.GetStatus();
}

TEST_F(BeastSendTest, AnAlreadyCancelledContextSendsNothing) {
    BeastTestServer server(RespondOk);
    auto transport = NewTransport(server.Url());
    auto ctx = Context::WithCancel(Context::Background());
    ctx.Cancel();
    auto response = Send(ctx, *transport, Get("/version"));
    EXPECT_TRUE(IsCancelled(response.GetStatus())) << response.GetStatus();
    EXPECT_EQ(server.Connections(), 0);
}

TEST_F(BeastSendTest, ARefusedConnectionIsUnavailableNamingTheServer) {
    auto ports = ctrl::testing::FreePorts(1);
    ASSERT_TRUE(ports.Ok());
    const std::string url = "http://127.0.0.1:" + std::to_string(ports->at(0));
    auto transport = NewTransport(url);
    auto response = Send(*transport, Get("/version"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("connecting to " + url + " failed"));
}

TEST_F(BeastSendTest, ConnectTimeoutCoversTheTlsHandshake) {
    BeastTestServer server(RespondOk, {.accept_only = true});
    const std::string url = "https" + server.Url().substr(4);
    TransportOptions options;
    options.tls.insecure_skip_verify = true;
    options.connect_timeout = milliseconds(200);
    auto transport = NewTransport(url, options);
    auto response = Send(*transport, Get("/version", milliseconds(5000)));
    EXPECT_TRUE(IsTimeout(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("connect timeout of 200ms exceeded"));
}

TEST_F(BeastSendTest, ABodyOverTheLimitIsRefusedFromItsHeader) {
    BeastTestServer server([](ServerExchange& exchange) -> Task<void> {
        co_await exchange.Write("HTTP/1.1 200 OK\r\nContent-Length: 2147483648\r\n\r\nxx");
        co_await exchange.Sleep(milliseconds(2000));
    });
    auto transport = NewTransport(server.Url());
    auto response = Send(*transport, Get("/huge"));
    EXPECT_TRUE(IsInternal(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("larger than the limit of 1024 MiB"));
}

TEST_F(BeastSendTest, MalformedRequestsAreBadRequests) {
    BeastTestServer server(RespondOk);
    auto transport = NewTransport(server.Url());
    EXPECT_TRUE(IsBadRequest(Send(*transport, Get("version")).GetStatus()));
    EXPECT_TRUE(IsBadRequest(Send(*transport, Request("GE T", "/version")).GetStatus()));
    HttpRequest injected = Get("/version");
    injected.SetHeader("X-Evil", "a\r\nHost: elsewhere");
    EXPECT_TRUE(IsBadRequest(Send(*transport, injected).GetStatus()));
    EXPECT_EQ(server.Connections(), 0);
}

TEST(BeastTransportTest, ManyConcurrentRequestsOnSeveralThreads) {
    BeastTestServer server([](ServerExchange& exchange) -> Task<void> {
        co_await exchange.Sleep(milliseconds(5));
        co_await RespondOk(exchange);
    });
    boost::asio::thread_pool pool(2);
    TransportOptions options;
    options.server = server.Url();
    options.max_idle_connections = 4;
    auto transport = NewBeastTransport(pool.get_executor(), options);
    ASSERT_TRUE(transport.Ok()) << transport.GetStatus();
    constexpr int kRequests = 200;
    std::vector<std::future<StatusOr<HttpResponse>>> results;
    for (int i = 0; i < kRequests; ++i) {
        results.push_back(boost::asio::co_spawn(pool, (*transport)->Send(TestContext(), Get("/r/" + std::to_string(i))),
                                                boost::asio::use_future));
    }
    for (int i = 0; i < kRequests; ++i) {
        ASSERT_EQ(results[i].wait_for(kTestWait), std::future_status::ready);
        auto response = results[i].get();
        ASSERT_TRUE(response.Ok()) << response.GetStatus();
        EXPECT_EQ(response->body, "ok:/r/" + std::to_string(i));
    }
    EXPECT_LE(server.Connections(), kRequests);
    const int after_burst = server.Connections();
    // The pool keeps at most 4: a sequential tail reuses them instead of connecting again.
    for (int i = 0; i < 20; ++i)
        ASSERT_TRUE(RunOn(pool.get_executor(), (*transport)->Send(TestContext(), Get("/t"))).Ok());
    EXPECT_EQ(server.Connections(), after_burst);
    transport->reset();
    pool.join();
}

}  // namespace
}  // namespace ctrl::rest
