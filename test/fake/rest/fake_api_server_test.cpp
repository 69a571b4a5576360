// The scripted fake API server (test/support/fake_api_server.hpp): each kind of script, seen
// from raw sockets and from the cpprestsdk transport, which these tests also drive through the
// faults a real API server cannot be pushed into (drops, stalls, slow and truncated bodies).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/time.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <thread>
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/cpprest_transport.hpp"
#include "test/support/eventually.hpp"
#include "test/support/fake_api_server.hpp"

namespace ctrl::rest {
namespace {

using testing::FakeApiServer;
using testing::FakeChunk;
using testing::FakeEnd;
using testing::FakeResponse;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using testing::kTestWait;
using testing::TestContext;
using testing::Within;

TransportOptions TrustingCa(std::string ca_pem, std::string server_name = "") {
    TransportOptions options;
    options.tls.ca_pem = std::move(ca_pem);
    options.tls.server_name = std::move(server_name);
    return options;
}

HttpRequest Get(std::string target) {
    HttpRequest request;
    request.target = std::move(target);
    return request;
}

// A blocking client on a raw TCP socket; every read gives up after 5 s.
class RawClient {
  public:
    explicit RawClient(int port) : socket_(io_) {
        socket_.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
        timeval timeout{.tv_sec = 5, .tv_usec = 0};
        setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    }
    void Write(const std::string& data) { boost::asio::write(socket_, boost::asio::buffer(data)); }
    // Reads until `marker` arrived or the connection closed (then `closed` is set).
    std::string ReadUntil(const std::string& marker) {
        std::string got;
        while (got.find(marker) == std::string::npos) {
            char buffer[4096];
            boost::system::error_code ec;
            const std::size_t n = socket_.read_some(boost::asio::buffer(buffer), ec);
            got.append(buffer, n);
            if (ec) {
                closed = ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset;
                break;
            }
        }
        return got;
    }
    bool closed = false;

  private:
    boost::asio::io_context io_;
    boost::asio::ip::tcp::socket socket_;
};

class FakeApiServerTest : public ::testing::Test {
  protected:
    void SetUp() override { Start({}); }

    void Start(FakeApiServer::Options options) {
        StatusOr<std::unique_ptr<FakeApiServer>> server = FakeApiServer::Start(options);
        ASSERT_TRUE(server.Ok()) << server.GetStatus();
        server_ = std::move(server).Value();
    }
    std::unique_ptr<Transport> Client(TransportOptions options = {}) {
        options.server = server_->Url();
        StatusOr<std::unique_ptr<Transport>> transport = NewCppRestTransport(io_.get_executor(), std::move(options));
        EXPECT_TRUE(transport.Ok()) << transport.GetStatus();
        return transport.Ok() ? std::move(transport).Value() : nullptr;
    }
    template <typename T>
    T Run(Task<T> task) {
        return RunSync(io_, std::move(task));
    }
    StatusOr<HttpResponse> Send(Transport& transport, HttpRequest request) {
        return Send(TestContext(), transport, std::move(request));
    }
    StatusOr<HttpResponse> Send(Context ctx, Transport& transport, HttpRequest request) {
        return Run(transport.Send(std::move(ctx), std::move(request)));
    }
    // The body read to its end, and how it ended.
    std::pair<std::string, Status> ReadToEnd(BodyStream& stream, Context ctx = TestContext()) {
        auto read = [&]() -> Task<std::pair<std::string, Status>> {
            std::string body;
            while (true) {
                char buffer[64 * 1024];
                StatusOr<std::size_t> n = co_await stream.ReadSome(ctx, buffer, sizeof buffer);
                if (!n.Ok())
                    co_return std::pair{body, n.GetStatus()};
                if (*n == 0)
                    co_return std::pair{body, OkStatus()};
                body.append(buffer, *n);
            }
        };
        return Run(read());
    }

    boost::asio::io_context io_;
    std::unique_ptr<FakeApiServer> server_;
};

TEST_F(FakeApiServerTest, AnswersAsScriptedAndRecordsTheRequest) {
    server_->Handle({.method = "POST", .path = "/api/v1/namespaces/default/configmaps"},
                    {FakeResponse::Json(201, R"({"kind":"ConfigMap"})").WithHeader("X-Fake", "yes")});
    std::unique_ptr<Transport> client = Client();
    HttpRequest request = Get("/api/v1/namespaces/default/configmaps?fieldManager=ctrl&labelSelector=a%3Db");
    request.method = "POST";
    request.SetHeader("Content-Type", "application/json");
    request.SetHeader("X-Custom", "1");
    request.body = R"({"kind":"ConfigMap"})";
    StatusOr<HttpResponse> response = Send(*client, request);
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->status, 201);
    EXPECT_EQ(response->body, R"({"kind":"ConfigMap"})");
    EXPECT_EQ(response->FindHeader("x-fake").value_or(""), "yes");
    EXPECT_EQ(response->FindHeader("Content-Type").value_or(""), "application/json");

    std::vector<testing::FakeRequest> requests = server_->Requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].method, "POST");
    EXPECT_EQ(requests[0].path, "/api/v1/namespaces/default/configmaps");
    EXPECT_EQ(requests[0].target, request.target);
    EXPECT_EQ(requests[0].QueryParam("labelSelector").value_or(""), "a=b");
    EXPECT_EQ(requests[0].QueryParam("fieldManager").value_or(""), "ctrl");
    EXPECT_EQ(requests[0].Header("x-custom").value_or(""), "1");
    EXPECT_EQ(requests[0].Header("Content-Type").value_or(""), "application/json");
    EXPECT_THAT(requests[0].Header("User-Agent").value_or(""), StartsWith("ctrl/"));
    EXPECT_EQ(requests[0].body, request.body);
    EXPECT_EQ(requests[0].connection, 1);
}

TEST_F(FakeApiServerTest, UnscriptedRequestsGetANotFoundStatus) {
    std::unique_ptr<Transport> client = Client();
    StatusOr<HttpResponse> response = Send(*client, Get("/apis/nothing"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->status, 404);
    EXPECT_THAT(response->body, HasSubstr(R"("reason":"NotFound")"));
}

TEST_F(FakeApiServerTest, ASequenceAnswersInTurnAndRepeatsTheLast) {
    server_->Handle({.method = "GET", .path = "/api/v1/pods"},
                    {FakeResponse::TooManyRequests(1), FakeResponse::TooManyRequests(1),
                     FakeResponse::Json(200, R"({"kind":"PodList","items":[]})")});
    std::unique_ptr<Transport> client = Client();
    std::vector<int> statuses;
    for (int i = 0; i < 4; ++i) {
        StatusOr<HttpResponse> response = Send(*client, Get("/api/v1/pods"));
        ASSERT_TRUE(response.Ok()) << response.GetStatus();
        statuses.push_back(response->status);
        if (response->status == 429) {
            EXPECT_EQ(response->FindHeader("Retry-After").value_or(""), "1");
        }
    }
    EXPECT_EQ(statuses, (std::vector<int>{429, 429, 200, 200}));
    EXPECT_EQ(server_->RequestCount(), 4u);
}

TEST_F(FakeApiServerTest, AHandlerComputesTheAnswerFromTheRequest) {
    server_->Handle({.method = "GET", .path = "/api/", .prefix = true}, [](const testing::FakeRequest& request) {
        return FakeResponse::Json(200, "{\"selector\":\"" + request.QueryParam("labelSelector").value_or("") + "\"}");
    });
    std::unique_ptr<Transport> client = Client();
    StatusOr<HttpResponse> response = Send(*client, Get("/api/v1/pods?labelSelector=app%3Dweb"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->body, R"({"selector":"app=web"})");
}

TEST_F(FakeApiServerTest, RawClientsSeeKeepAliveAndConnectionCounts) {
    server_->Handle({.path = "/one"}, {FakeResponse::Json(200, "ok")});
    server_->Handle({.path = "/close"}, {FakeResponse::Close()});
    RawClient first(server_->Port());
    first.Write("GET /one HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_THAT(first.ReadUntil("\r\n\r\nok"), StartsWith("HTTP/1.1 200 OK\r\n"));
    first.Write("GET /one?again=1 HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_THAT(first.ReadUntil("\r\n\r\nok"), HasSubstr("Content-Length: 2\r\n"));

    RawClient second(server_->Port());
    second.Write("GET /close HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(second.ReadUntil("never"), "");
    EXPECT_TRUE(second.closed);

    std::vector<testing::FakeRequest> requests = server_->Requests();
    ASSERT_EQ(requests.size(), 3u);
    EXPECT_EQ(requests[0].connection, 1);
    EXPECT_EQ(requests[1].connection, 1);
    EXPECT_EQ(requests[1].QueryParam("again").value_or(""), "1");
    EXPECT_EQ(requests[2].connection, 2);
    EXPECT_EQ(server_->ConnectionsAccepted(), 2);
}

TEST_F(FakeApiServerTest, StreamedChunksArriveAsTheyAreSent) {
    const std::string first = R"({"type":"ADDED","obj)";
    server_->Handle({.method = "GET", .path = "/api/v1/pods"},
                    {FakeResponse::Stream({{.data = first},
                                           {.delay = 700ms, .data = "ect\":{}}\n{\"type\":"},
                                           {.delay = 700ms, .data = "\"DELETED\",\"object\":{}}\n"}})});
    std::unique_ptr<Transport> client = Client();
    const auto start = Clock::now();
    StatusOr<std::unique_ptr<BodyStream>> stream = Run(client->Open(TestContext(), Get("/api/v1/pods?watch=1")));
    ASSERT_TRUE(stream.Ok()) << stream.GetStatus();
    EXPECT_EQ((*stream)->StatusCode(), 200);
    char buffer[256];
    StatusOr<std::size_t> got = Run((*stream)->ReadSome(TestContext(), buffer, sizeof buffer));
    ASSERT_TRUE(got.Ok()) << got.GetStatus();
    EXPECT_EQ(std::string(buffer, *got), first);
    // The server counts a chunk once its write completes, which may be after the client read it: what
    // must not have happened is the next chunk's write (700 ms later).
    EXPECT_LE(server_->BodyBytesSent(), first.size()) << "the first chunk waited for the next one";
    auto [rest, status] = ReadToEnd(**stream);
    EXPECT_TRUE(status.Ok()) << status;
    EXPECT_EQ(rest, "ect\":{}}\n{\"type\":\"DELETED\",\"object\":{}}\n");
    EXPECT_GE(Clock::now() - start, 1400ms);
}

TEST_F(FakeApiServerTest, ADroppedStreamIsUnavailableAfterItsBytes) {
    server_->Handle(
        {.path = "/watch"},
        {FakeResponse::Stream({{.data = "{\"type\":\"ADDED\"}\n"}, {.delay = 100ms, .data = "{\"type\":\"MOD"}},
                              FakeEnd::kDrop)});
    std::unique_ptr<Transport> client = Client();
    StatusOr<std::unique_ptr<BodyStream>> stream = Run(client->Open(TestContext(), Get("/watch")));
    ASSERT_TRUE(stream.Ok()) << stream.GetStatus();
    auto [body, status] = ReadToEnd(**stream);
    EXPECT_EQ(body, "{\"type\":\"ADDED\"}\n{\"type\":\"MOD");
    EXPECT_TRUE(IsUnavailable(status)) << status;
    EXPECT_THAT(status.Message(), HasSubstr("lost in the middle of the body"));
    EXPECT_THAT(status.Message(), HasSubstr(server_->Url()));
}

TEST_F(FakeApiServerTest, ATruncatedBodyIsUnavailable) {
    server_->Handle({.path = "/big"}, {FakeResponse::Truncated(std::string(1000, 'x'), 100)});
    std::unique_ptr<Transport> client = Client();
    StatusOr<HttpResponse> response = Send(*client, Get("/big"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
}

TEST_F(FakeApiServerTest, ASlowBodyHitsTheRequestTimeout) {
    // A byte every 50 ms for 100 s: the whole body would come long after the test's wait.
    server_->Handle({.path = "/slow"}, {FakeResponse::Slow(std::string(2000, 'x'), 50ms)});
    std::unique_ptr<Transport> client = Client();
    HttpRequest request = Get("/slow");
    request.timeout = 300ms;
    StatusOr<HttpResponse> response = Send(*client, request);
    EXPECT_TRUE(IsTimeout(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("request timeout"));
    EXPECT_TRUE(server_->WaitForRequests(1, kTestWait));
}

TEST_F(FakeApiServerTest, ASilentServerHitsTheIdleTimeout) {
    // Silent for an hour: only the idle timeout can end these within the test's wait.
    server_->Handle({.path = "/silent-headers"}, {FakeResponse::Json(200, "{}").After(1h)});
    server_->Handle({.path = "/silent-body"}, {FakeResponse::Stream({{.data = "a"}, {.delay = 1h, .data = "b"}})});
    TransportOptions options;
    options.idle_timeout = 300ms;
    std::unique_ptr<Transport> client = Client(options);
    StatusOr<HttpResponse> response = Send(*client, Get("/silent-headers"));
    EXPECT_TRUE(IsTimeout(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("idle timeout"));

    StatusOr<std::unique_ptr<BodyStream>> stream = Run(client->Open(TestContext(), Get("/silent-body")));
    ASSERT_TRUE(stream.Ok()) << stream.GetStatus();
    auto [body, status] = ReadToEnd(**stream);
    EXPECT_EQ(body, "a");
    EXPECT_TRUE(IsTimeout(status)) << status;
    EXPECT_THAT(status.Message(), HasSubstr("idle timeout"));
}

TEST_F(FakeApiServerTest, AnHtmlPageIsAResponseNotAnError) {
    server_->Handle({.path = "/version"}, {FakeResponse::Html(502, "<html><body>Bad Gateway</body></html>")});
    std::unique_ptr<Transport> client = Client();
    StatusOr<HttpResponse> response = Send(*client, Get("/version"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->status, 502);
    EXPECT_THAT(std::string(response->FindHeader("Content-Type").value_or("")), StartsWith("text/html"));
    EXPECT_THAT(response->body, HasSubstr("Bad Gateway"));
}

TEST_F(FakeApiServerTest, ClosingWithoutAnAnswerIsUnavailable) {
    server_->Handle({.path = "/version"}, {FakeResponse::Close()});
    std::unique_ptr<Transport> client = Client();
    StatusOr<HttpResponse> response = Send(*client, Get("/version"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("sent no complete response"));
}

TEST_F(FakeApiServerTest, StopIsPromptAndDropsOpenStreams) {
    server_->Handle({.path = "/hang"}, {FakeResponse::Stream({{.data = "first\n"}}, FakeEnd::kHang)});
    // An answer an hour away and a stream that never ends: Stop returns, and the stream ends
    // Unavailable, within the test's wait only if Stop waits for neither.
    server_->Handle({.path = "/delayed"}, {FakeResponse::Json(200, "{}").After(1h)});
    RawClient waiting(server_->Port());
    waiting.Write("GET /delayed HTTP/1.1\r\nHost: x\r\n\r\n");
    std::unique_ptr<Transport> client = Client();
    StatusOr<std::unique_ptr<BodyStream>> stream = Run(client->Open(TestContext(), Get("/hang")));
    ASSERT_TRUE(stream.Ok()) << stream.GetStatus();
    ASSERT_TRUE(server_->WaitForRequests(2, kTestWait));

    std::atomic<bool> stopped = false;
    std::thread stopper([&] {
        std::this_thread::sleep_for(200ms);
        server_->Stop();
        stopped = true;
    });
    auto [body, status] = ReadToEnd(**stream);
    EXPECT_TRUE(testing::Eventually([&] { return stopped.load(); })) << "Stop did not return";
    stopper.join();
    EXPECT_EQ(body, "first\n");
    EXPECT_TRUE(IsUnavailable(status)) << status;
    EXPECT_EQ(waiting.ReadUntil("never"), "");
    EXPECT_TRUE(waiting.closed);
}

TEST_F(FakeApiServerTest, ReaderBackpressureHoldsTheServerBack) {
    constexpr std::size_t kChunk = 64 * 1024;
    constexpr std::size_t kChunks = 1024;  // 64 MiB: far more than socket buffers and the queue hold
    std::vector<FakeChunk> chunks(kChunks, FakeChunk{.data = std::string(kChunk, 'w')});
    server_->Handle({.path = "/flood"}, {FakeResponse::Stream(std::move(chunks))});
    std::unique_ptr<Transport> client = Client();
    StatusOr<std::unique_ptr<BodyStream>> stream = Run(client->Open(TestContext(), Get("/flood")));
    ASSERT_TRUE(stream.Ok()) << stream.GetStatus();
    char buffer[1024];
    ASSERT_TRUE(Run((*stream)->ReadSome(TestContext(), buffer, sizeof buffer)).Ok());
    std::this_thread::sleep_for(1s);
    const std::size_t sent_while_idle = server_->BodyBytesSent();
    std::cout << "sent while the reader waited: " << sent_while_idle / 1024 << " KiB of " << kChunks * kChunk / 1024
              << " KiB" << std::endl;
    EXPECT_LT(sent_while_idle, kChunks * kChunk / 2);
    auto [rest, status] = ReadToEnd(**stream, Within(2 * kTestWait));
    EXPECT_TRUE(status.Ok()) << status;
    EXPECT_EQ(rest.size() + sizeof buffer, kChunks * kChunk);
}

TEST_F(FakeApiServerTest, ResetForgetsScriptsAndRecords) {
    server_->Handle({.path = "/x"}, {FakeResponse::Json(200, "{}")});
    std::unique_ptr<Transport> client = Client();
    ASSERT_EQ(Send(*client, Get("/x"))->status, 200);
    server_->Reset();
    EXPECT_EQ(server_->RequestCount(), 0u);
    EXPECT_EQ(server_->ConnectionsAccepted(), 0);
    EXPECT_EQ(Send(*client, Get("/x"))->status, 404);
}

class FakeApiServerTlsTest : public FakeApiServerTest {
  protected:
    void SetUp() override { Start({.tls = true}); }
};

TEST_F(FakeApiServerTlsTest, ServesHttpsWithItsCaAndRecordsTheServerName) {
    server_->Handle({.path = "/version"}, {FakeResponse::Json(200, R"({"gitVersion":"fake"})")});
    EXPECT_THAT(server_->Url(), StartsWith("https://127.0.0.1:"));
    std::unique_ptr<Transport> by_ip = Client(TrustingCa(server_->CaPem()));
    StatusOr<HttpResponse> response = Send(*by_ip, Get("/version"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->status, 200);

    std::unique_ptr<Transport> by_name = Client(TrustingCa(server_->CaPem(), "localhost"));
    response = Send(*by_name, Get("/version"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();

    std::vector<testing::FakeRequest> requests = server_->Requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[0].tls_server_name, "") << "no SNI for an IP address";
    EXPECT_EQ(requests[1].tls_server_name, "localhost");
}

TEST_F(FakeApiServerTlsTest, TlsFailuresSayWhy) {
    std::unique_ptr<Transport> untrusted = Client();
    StatusOr<HttpResponse> response = Send(*untrusted, Get("/version"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("not signed by a trusted CA"));

    std::unique_ptr<Transport> wrong_name = Client(TrustingCa(server_->CaPem(), "api.example.com"));
    response = Send(*wrong_name, Get("/version"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("only for 127.0.0.1, localhost"));
    std::cout << "wrong server name: " << response.GetStatus() << std::endl;
}

TEST_F(FakeApiServerTest, TlsToAPlainServerIsAClearError) {
    TransportOptions options;
    options.server = "https://127.0.0.1:" + std::to_string(server_->Port());
    StatusOr<std::unique_ptr<Transport>> client = NewCppRestTransport(io_.get_executor(), options);
    ASSERT_TRUE(client.Ok()) << client.GetStatus();
    StatusOr<HttpResponse> response = Send(**client, Get("/version"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("TLS handshake with " + options.server + " failed"));
    std::cout << "TLS to plain HTTP: " << response.GetStatus() << std::endl;
}

}  // namespace
}  // namespace ctrl::rest
