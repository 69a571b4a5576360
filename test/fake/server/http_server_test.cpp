#include "ctrl/server/http_server.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <random>
#include <stdexcept>
#include <thread>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/beast_transport.hpp"
#include "ctrl/server/health_checks.hpp"
#include "ctrl/server/metrics_handler.hpp"
#include "test/fake/server/raw_http_client.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::server {
namespace {

using ::testing::HasSubstr;
using testing::RawHttpClient;
using testing::RawResponse;

std::string Get(const std::string& target, const std::string& extra_headers = "") {
    return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra_headers + "\r\n";
}

// An HttpServer with health checks and metrics, run on two threads of its own io_context.
class HttpServerTest : public ::testing::Test {
  protected:
    void Start(HttpServerOptions options) {
        options.bind_address = "127.0.0.1:0";
        StatusOr<std::unique_ptr<HttpServer>> made = HttpServer::New(io_.get_executor(), options);
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        server_ = std::move(*made);
        ASSERT_TRUE(checks_.Add("ping", Ping).Ok());
        ASSERT_TRUE(
            checks_.Add("informers", [this] { return synced_ ? OkStatus() : UnavailableError("caches not synced"); })
                .Ok());
        checks_.Register(*server_, "/readyz");
        HealthChecks healthz;
        healthz.Register(*server_, "/healthz");
        server_->Handle("/metrics", MetricsHandler(registry_));
        registry_.AddCounter("controller_runtime_reconcile_total", "Total", {"controller", "result"})
            .WithLabelValues({"pods", "success"})
            .Inc(2);
        boost::asio::co_spawn(io_, server_->Run(ctx_),
                              [this](std::exception_ptr, Status status) { result_.set_value(std::move(status)); });
        for (int i = 0; i < 2; ++i)
            threads_.emplace_back([this] { io_.run(); });
    }
    void TearDown() override {
        ctx_.Cancel();
        if (!threads_.empty()) {
            auto ended = result_.get_future();
            EXPECT_EQ(ended.wait_for(std::chrono::seconds(30)), std::future_status::ready);
            EXPECT_TRUE(ended.get().Ok());
        }
        for (auto& t : threads_)
            t.join();
    }
    int Port() const { return server_->BoundPort(); }

    boost::asio::io_context io_;
    Context ctx_ = Context::WithCancel(Context::Background());
    std::unique_ptr<HttpServer> server_;
    HealthChecks checks_;
    metrics::Registry registry_;
    std::atomic<bool> synced_ = false;
    std::promise<Status> result_;
    std::vector<std::thread> threads_;
};

TEST_F(HttpServerTest, ServesChecksAndMetricsOverKeepAlive) {
    Start({});
    RawHttpClient client(Port());
    ASSERT_TRUE(client.Connected());
    ASSERT_TRUE(client.Send(Get("/healthz")));
    RawResponse healthz = client.Read();
    EXPECT_EQ(healthz.status, 200);
    EXPECT_EQ(healthz.body, "ok");
    EXPECT_EQ(healthz.headers["x-content-type-options"], "nosniff");
    // Same connection: keep-alive.
    ASSERT_TRUE(client.Send(Get("/readyz?verbose&exclude=ping")));
    RawResponse readyz = client.Read();
    EXPECT_EQ(readyz.status, 500);
    EXPECT_EQ(readyz.body, "[-]informers failed: reason withheld\n[+]ping excluded: ok\nhealthz check failed\n");
    synced_ = true;
    ASSERT_TRUE(client.Send(Get("/readyz?verbose&exclude=ping")));
    EXPECT_EQ(client.Read().body, "[+]informers ok\n[+]ping excluded: ok\nhealthz check passed\n");
    ASSERT_TRUE(client.Send(Get("/readyz/informers")));
    EXPECT_EQ(client.Read().status, 200);
    ASSERT_TRUE(client.Send(Get("/readyz/nope")));
    EXPECT_EQ(client.Read().status, 404);
    ASSERT_TRUE(client.Send(Get("/metrics")));
    RawResponse metrics = client.Read();
    EXPECT_EQ(metrics.status, 200);
    EXPECT_EQ(metrics.headers["content-type"], "text/plain; version=0.0.4; charset=utf-8");
    EXPECT_THAT(metrics.body,
                HasSubstr("controller_runtime_reconcile_total{controller=\"pods\",result=\"success\"} 2"));
    ASSERT_TRUE(client.Send(Get("/metrics", "Accept-Encoding: gzip\r\n")));
    RawResponse gzipped = client.Read();
    EXPECT_EQ(gzipped.headers["content-encoding"], "gzip");
    ASSERT_GE(gzipped.body.size(), 2u);
    EXPECT_EQ(static_cast<unsigned char>(gzipped.body[0]), 0x1f);
    EXPECT_EQ(static_cast<unsigned char>(gzipped.body[1]), 0x8b);
}

TEST_F(HttpServerTest, UnknownPathIs404AndOtherMethodsAre405) {
    Start({});
    RawHttpClient client(Port());
    ASSERT_TRUE(client.Send(Get("/nope")));
    RawResponse missing = client.Read();
    EXPECT_EQ(missing.status, 404);
    EXPECT_EQ(missing.body, "404 page not found\n");
    ASSERT_TRUE(client.Send("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"));
    RawResponse post = client.Read();
    EXPECT_EQ(post.status, 405);
    EXPECT_EQ(post.headers["allow"], "GET, HEAD");
    ASSERT_TRUE(client.Send("HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
    RawResponse head = client.Read(/*head_only=*/true);
    EXPECT_EQ(head.status, 200);
    EXPECT_EQ(head.headers["content-length"], "2");
    // No body followed the HEAD answer: the next response parses.
    ASSERT_TRUE(client.Send(Get("/healthz")));
    EXPECT_EQ(client.Read().body, "ok");
}

TEST_F(HttpServerTest, GarbageIs400AndTheConnectionCloses) {
    Start({});
    for (const std::string& garbage : {std::string("HELLO THERE\r\n\r\n"), std::string("GET / HTTP/9.9\r\n\r\n"),
                                       std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 15),
                                       std::string("GET /healthz HTTP/1.1\r\nBad Header\r\n\r\n")}) {
        RawHttpClient client(Port());
        ASSERT_TRUE(client.Send(garbage));
        RawResponse response = client.Read();
        EXPECT_EQ(response.status, 400) << garbage;
        EXPECT_TRUE(client.ClosedByPeer());
    }
    // Still serving.
    RawHttpClient client(Port());
    ASSERT_TRUE(client.Send(Get("/healthz")));
    EXPECT_EQ(client.Read().status, 200);
}

TEST_F(HttpServerTest, RandomBytesNeverStopTheServer) {
    Start({});
    std::mt19937 random(14);
    for (int i = 0; i < 200; ++i) {
        std::string bytes(1 + random() % 600, '\0');
        for (char& c : bytes)
            c = static_cast<char>(random() % 256);
        // Half of them start like a request, so the parser gets past the request line.
        if (i % 2 == 0)
            bytes = "GET /healthz HTTP/1.1\r\n" + bytes + "\r\n\r\n";
        RawHttpClient client(Port(), std::chrono::seconds(15));
        client.Send(bytes);
        client.Read();  // whatever comes back, or a close
    }
    RawHttpClient client(Port());
    ASSERT_TRUE(client.Send(Get("/healthz")));
    EXPECT_EQ(client.Read().status, 200);
}

TEST_F(HttpServerTest, AHandlerThatThrowsGets500AndTheConnectionGoesOn) {
    Start({});
    server_->Handle("/throws", [](const ServerRequest&) -> Task<ServerResponse> {
        throw std::runtime_error("boom");
        co_return TextResponse(200, "never");
    });
    RawHttpClient client(Port());
    ASSERT_TRUE(client.Send(Get("/throws")));
    EXPECT_EQ(client.Read().status, 500);
    ASSERT_TRUE(client.Send(Get("/healthz")));
    EXPECT_EQ(client.Read().status, 200);
}

TEST_F(HttpServerTest, OversizedHeaderIs431AndClosed) {
    HttpServerOptions options;
    options.max_header_bytes = 8 * 1024;
    Start(options);
    RawHttpClient client(Port());
    client.Send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(64 * 1024, 'a') + "\r\n\r\n");
    RawResponse response = client.Read();
    // 431, or a closed connection when the server closed before the client finished writing.
    EXPECT_TRUE(response.status == 431 || response.status == 0) << response.status;
    EXPECT_TRUE(client.ClosedByPeer());
}

TEST_F(HttpServerTest, SlowlorisIsCutOffWhileOthersAreServed) {
    HttpServerOptions options;
    options.read_timeout = std::chrono::milliseconds(1500);
    Start(options);
    RawHttpClient slow(Port(), std::chrono::seconds(20));
    ASSERT_TRUE(slow.Send("GET /healthz HTTP/1.1\r\n"));
    std::atomic<bool> slow_closed = false;
    std::atomic<int> slow_bytes = 0;
    std::thread dripper([&] {
        // One header byte every 200 ms: a complete header would take minutes.
        for (int i = 0; i < 600 && !slow_closed; ++i) {
            if (!slow.Send("X")) {
                slow_closed = true;
                break;
            }
            ++slow_bytes;
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    });
    // Meanwhile another client is answered, again and again.
    int served = 0;
    for (int i = 0; i < 5; ++i) {
        RawHttpClient other(Port());
        ASSERT_TRUE(other.Send(Get("/healthz")));
        if (other.Read().status == 200)
            ++served;
    }
    EXPECT_EQ(served, 5);
    // The dripper is cut off: its sends fail once the server closed the connection.
    EXPECT_TRUE(testing::Eventually([&] { return slow_closed.load(); }, std::chrono::seconds(60)));
    dripper.join();
    EXPECT_LT(slow_bytes.load(), 600);
}

TEST_F(HttpServerTest, ASilentNewConnectionIsClosedAfterTheReadTimeout) {
    HttpServerOptions options;
    options.read_timeout = std::chrono::milliseconds(500);
    options.idle_timeout = std::chrono::minutes(10);
    Start(options);
    RawHttpClient silent(Port(), std::chrono::seconds(30));
    EXPECT_TRUE(silent.ClosedByPeer());
}

TEST_F(HttpServerTest, ConnectionsOverTheLimitAreClosedAndOthersGoOn) {
    HttpServerOptions options;
    options.max_connections = 2;
    Start(options);
    RawHttpClient first(Port()), second(Port());
    ASSERT_TRUE(first.Send(Get("/healthz")));
    ASSERT_EQ(first.Read().status, 200);
    ASSERT_TRUE(second.Send(Get("/healthz")));
    ASSERT_EQ(second.Read().status, 200);
    RawHttpClient third(Port());
    EXPECT_TRUE(third.ClosedByPeer());
    // The two admitted ones are still served.
    ASSERT_TRUE(first.Send(Get("/healthz")));
    EXPECT_EQ(first.Read().status, 200);
}

TEST_F(HttpServerTest, StoppingClosesIdleConnectionsAndRunReturns) {
    Start({});
    RawHttpClient idle(Port());
    ASSERT_TRUE(idle.Send(Get("/healthz")));
    ASSERT_EQ(idle.Read().status, 200);
    ctx_.Cancel();
    EXPECT_TRUE(idle.ClosedByPeer());
    // TearDown checks that Run returned OK.
}

TEST(HttpServerTlsTest, ServesHttpsWithASelfSignedCertificate) {
    boost::asio::io_context io;
    HttpServerOptions options;
    options.bind_address = "127.0.0.1:0";
    options.serve_tls = true;
    StatusOr<std::unique_ptr<HttpServer>> server = HttpServer::New(io.get_executor(), options);
    ASSERT_TRUE(server.Ok()) << server.GetStatus();
    EXPECT_EQ((*server)->Url().rfind("https://127.0.0.1:", 0), 0u) << (*server)->Url();
    HealthChecks checks;
    checks.Register(**server, "/healthz");
    rest::TransportOptions transport_options;
    transport_options.server = (*server)->Url();
    transport_options.tls.insecure_skip_verify = true;
    StatusOr<std::unique_ptr<rest::Transport>> transport =
        rest::NewBeastTransport(io.get_executor(), std::move(transport_options));
    ASSERT_TRUE(transport.Ok()) << transport.GetStatus();
    Context ctx = Context::WithCancel(Context::Background());
    auto scenario = [&]() -> Task<StatusOr<rest::HttpResponse>> {
        rest::HttpRequest request;
        request.target = "/healthz";
        request.timeout = std::chrono::seconds(20);
        Context call = Context::Background();
        StatusOr<rest::HttpResponse> response = co_await (*transport)->Send(call, request);
        ctx.Cancel();
        co_return response;
    };
    std::optional<Status> ran;
    boost::asio::co_spawn(io, (*server)->Run(ctx), [&](std::exception_ptr, Status s) { ran = s; });
    StatusOr<rest::HttpResponse> response = RunSync(io, scenario());
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->status, 200);
    EXPECT_EQ(response->body, "ok");
    transport->reset();
    while (!ran && io.run_one() > 0) {
    }
    ASSERT_TRUE(ran.has_value());
    EXPECT_TRUE(ran->Ok());
}

TEST(HttpServerDisabledTest, BindAddressZeroDisablesTheServer) {
    boost::asio::io_context io;
    HttpServerOptions options;
    options.bind_address = "0";
    StatusOr<std::unique_ptr<HttpServer>> server = HttpServer::New(io.get_executor(), options);
    ASSERT_TRUE(server.Ok());
    EXPECT_TRUE((*server)->Disabled());
    EXPECT_EQ((*server)->BoundPort(), 0);
    EXPECT_EQ((*server)->Url(), "");
    // The manager starts it before leader election.
    EXPECT_FALSE((*server)->NeedLeaderElection());
    EXPECT_EQ((*server)->Name(), "http server");
    EXPECT_TRUE(RunSync(io, (*server)->Run(Context::Background())).Ok());
}

TEST(HttpServerBindTest, AddressInUseIsUnavailable) {
    boost::asio::io_context io;
    HttpServerOptions options;
    options.bind_address = "127.0.0.1:0";
    StatusOr<std::unique_ptr<HttpServer>> first = HttpServer::New(io.get_executor(), options);
    ASSERT_TRUE(first.Ok());
    options.bind_address = "127.0.0.1:" + std::to_string((*first)->BoundPort());
    StatusOr<std::unique_ptr<HttpServer>> second = HttpServer::New(io.get_executor(), options);
    ASSERT_FALSE(second.Ok());
    EXPECT_EQ(second.GetStatus().Code(), StatusCode::kUnavailable);
    EXPECT_THAT(second.GetStatus().Message(), HasSubstr("cannot listen on 127.0.0.1:"));
}

}  // namespace
}  // namespace ctrl::server
