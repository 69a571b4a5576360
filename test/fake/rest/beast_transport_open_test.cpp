// The Beast transport's Open and its BodyStream against an in-process loopback server: bytes
// arrive as the server sends them, nothing is read before it is asked for, and a stream that
// idles, drops, is cancelled or closed ends with the right status.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_future.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/beast_transport.hpp"
#include "test/fake/rest/beast_test_server.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::rest {
namespace {

using testing::BeastTestServer;
using testing::Get;
using ::testing::HasSubstr;
using testing::ServerExchange;
using Clock = std::chrono::steady_clock;
using ctrl::testing::kTestWait;
using ctrl::testing::TestContext;
using std::chrono::milliseconds;

class BeastOpenTest : public ::testing::Test {
  protected:
    std::unique_ptr<Transport> NewTransport(const std::string& server, TransportOptions options = {}) {
        options.server = server;
        auto transport = NewBeastTransport(io_.get_executor(), std::move(options));
        EXPECT_TRUE(transport.Ok()) << transport.GetStatus();
        return transport.Ok() ? std::move(transport).Value() : nullptr;
    }
    std::unique_ptr<BodyStream> Open(Transport& transport, HttpRequest request) {
        auto stream = RunSync(io_, transport.Open(TestContext(), std::move(request)));
        EXPECT_TRUE(stream.Ok()) << stream.GetStatus();
        return stream.Ok() ? std::move(stream).Value() : nullptr;
    }
    StatusOr<std::size_t> Read(BodyStream& stream, std::string& into, Context ctx = TestContext()) {
        char buffer[4096];
        auto n = RunSync(io_, stream.ReadSome(std::move(ctx), buffer, sizeof(buffer)));
        if (n.Ok())
            into.append(buffer, *n);
        return n;
    }
    // Reads until the body ends or fails; returns the final status.
    Status ReadAll(BodyStream& stream, std::string& into) {
        for (;;) {
            auto n = Read(stream, into);
            if (!n.Ok())
                return n.GetStatus();
            if (*n == 0)
                return OkStatus();
        }
    }

    boost::asio::io_context io_;
};

TEST_F(BeastOpenTest, ChunksArriveAsTheServerSendsThem) {
    std::atomic<bool> client_saw_first = false;
    BeastTestServer server([&](ServerExchange& exchange) -> Task<void> {
        co_await exchange.StartChunked(200);
        co_await exchange.WriteChunk("{\"type\":\"ADDED\"}\n");
        // The second event is sent only once the client has read the first: it streams.
        while (!client_saw_first)
            co_await exchange.Sleep(milliseconds(10));
        co_await exchange.WriteChunk("{\"type\":");
        co_await exchange.WriteChunk("\"DELETED\"}\n");
        co_await exchange.EndChunks();
    });
    auto transport = NewTransport(server.Url());
    auto stream = Open(*transport, Get("/api/v1/pods?watch=1"));
    ASSERT_NE(stream, nullptr);
    EXPECT_EQ(stream->StatusCode(), 200);
    bool found = false;
    for (const Header& header : stream->Headers())
        found |= header.name == "Transfer-Encoding" && header.value == "chunked";
    EXPECT_TRUE(found);

    std::string body;
    while (body.find('\n') == std::string::npos) {
        auto n = Read(*stream, body);
        ASSERT_TRUE(n.Ok()) << n.GetStatus();
        ASSERT_GT(*n, 0u);
    }
    EXPECT_EQ(body, "{\"type\":\"ADDED\"}\n");
    client_saw_first = true;
    ASSERT_TRUE(ReadAll(*stream, body).Ok());
    EXPECT_EQ(body, "{\"type\":\"ADDED\"}\n{\"type\":\"DELETED\"}\n");
    auto again = Read(*stream, body);
    ASSERT_TRUE(again.Ok());
    EXPECT_EQ(*again, 0u);
}

// Chunks the client has already received (a server that writes several events at once, or a TLS
// record holding several) come back from one read, not one read per chunk; a read still returns
// what it has without waiting for more.
TEST_F(BeastOpenTest, ChunksAlreadyReceivedComeBackInOneRead) {
    std::atomic<bool> client_read = false;
    BeastTestServer server([&](ServerExchange& exchange) -> Task<void> {
        co_await exchange.StartChunked(200);
        co_await exchange.Write("5\r\nfirst\r\n6\r\nsecond\r\n5\r\nthird\r\n");
        while (!client_read)
            co_await exchange.Sleep(milliseconds(10));
        co_await exchange.EndChunks();
    });
    auto transport = NewTransport(server.Url());
    auto stream = Open(*transport, Get("/api/v1/pods?watch=1"));
    ASSERT_NE(stream, nullptr);
    std::string body;
    // The three chunks were written at once: the first read that returns any returns them all.
    while (body.empty()) {
        auto n = Read(*stream, body);
        ASSERT_TRUE(n.Ok()) << n.GetStatus();
    }
    EXPECT_EQ(body, "firstsecondthird");
    client_read = true;
    ASSERT_TRUE(ReadAll(*stream, body).Ok());
    EXPECT_EQ(body, "firstsecondthird");
}

// A malformed chunk behind good ones: the good bytes are delivered, then the stream fails.
TEST_F(BeastOpenTest, AMalformedChunkAfterGoodOnesFailsAfterThem) {
    BeastTestServer server([](ServerExchange& exchange) -> Task<void> {
        co_await exchange.StartChunked(200);
        co_await exchange.Write("5\r\nfirst\r\nzz\r\nbad\r\n");
        co_await exchange.Sleep(std::chrono::hours(1));
    });
    auto transport = NewTransport(server.Url());
    auto stream = Open(*transport, Get("/api/v1/pods?watch=1"));
    ASSERT_NE(stream, nullptr);
    std::string body;
    Status status = ReadAll(*stream, body);
    EXPECT_EQ(body, "first");
    EXPECT_TRUE(IsUnavailable(status)) << status;
    EXPECT_THAT(status.Message(), HasSubstr("ended mid-body"));
}

TEST_F(BeastOpenTest, AContentLengthBodyEndsCleanly) {
    BeastTestServer server([](ServerExchange& exchange) -> Task<void> {
        co_await exchange.Respond(410, "{\"kind\":\"Status\",\"code\":410}");
    });
    auto transport = NewTransport(server.Url());
    auto stream = Open(*transport, Get("/api/v1/pods?watch=1&resourceVersion=1"));
    ASSERT_NE(stream, nullptr);
    EXPECT_EQ(stream->StatusCode(), 410);
    std::string body;
    ASSERT_TRUE(ReadAll(*stream, body).Ok());
    EXPECT_EQ(body, "{\"kind\":\"Status\",\"code\":410}");
}

TEST_F(BeastOpenTest, ADroppedConnectionMidBodyIsUnavailable) {
    BeastTestServer server([](ServerExchange& exchange) -> Task<void> {
        co_await exchange.StartChunked(200);
        co_await exchange.WriteChunk("{\"type\":\"ADDED\"}\n");
        exchange.CloseAfter();
    });
    auto transport = NewTransport(server.Url());
    auto stream = Open(*transport, Get("/api/v1/pods?watch=1"));
    ASSERT_NE(stream, nullptr);
    std::string body;
    Status status = ReadAll(*stream, body);
    EXPECT_TRUE(IsUnavailable(status)) << status;
    EXPECT_THAT(status.Message(), HasSubstr("watch stream from " + server.Url() + "/api/v1/pods ended mid-body"));
    EXPECT_EQ(body, "{\"type\":\"ADDED\"}\n");
    EXPECT_TRUE(IsUnavailable(Read(*stream, body).GetStatus()));  // stays failed
}

// A stream that never sends a byte of its body: a read of it ends only by a timeout, deadline,
// cancel or Close.
Task<void> SendHeaderThenIdle(ServerExchange& exchange) {
    co_await exchange.StartChunked(200);
    co_await exchange.Sleep(std::chrono::hours(1));
}

TEST_F(BeastOpenTest, IdleTimeoutBetweenBytesGivesTimeout) {
    BeastTestServer server(SendHeaderThenIdle);
    TransportOptions options;
    options.idle_timeout = milliseconds(200);
    auto transport = NewTransport(server.Url(), options);
    auto stream = Open(*transport, Get("/api/v1/pods?watch=1"));
    ASSERT_NE(stream, nullptr);
    std::string body;
    auto n = Read(*stream, body);
    EXPECT_TRUE(IsTimeout(n.GetStatus())) << n.GetStatus();
    EXPECT_THAT(n.GetStatus().Message(), HasSubstr("idle timeout of 200ms exceeded"));
}

// The body is sent only once the test has waited past the request timeout.
TEST_F(BeastOpenTest, TheRequestTimeoutCoversOnlyTheHeader) {
    std::atomic<bool> send_body = false;
    BeastTestServer server([&send_body](ServerExchange& exchange) -> Task<void> {
        co_await exchange.StartChunked(200);
        while (!send_body)
            co_await exchange.Sleep(milliseconds(5));
        co_await exchange.WriteChunk("late\n");
        co_await exchange.EndChunks();
    });
    auto transport = NewTransport(server.Url());
    auto stream = Open(*transport, Get("/w", milliseconds(500)));
    ASSERT_NE(stream, nullptr);
    std::this_thread::sleep_for(milliseconds(700));
    send_body = true;
    std::string body;
    ASSERT_TRUE(ReadAll(*stream, body).Ok());
    EXPECT_EQ(body, "late\n");
}

// Should the cancel not reach the read, the idle timeout (the test's wait) ends it with Timeout.
TEST_F(BeastOpenTest, CancellingTheContextEndsAPendingRead) {
    BeastTestServer server(SendHeaderThenIdle);
    TransportOptions options;
    options.idle_timeout = kTestWait;
    auto transport = NewTransport(server.Url(), options);
    auto stream = Open(*transport, Get("/api/v1/pods?watch=1"));
    ASSERT_NE(stream, nullptr);
    auto ctx = Context::WithCancel(Context::Background());
    std::thread canceller([ctx] {
        std::this_thread::sleep_for(milliseconds(150));
        ctx.Cancel();
    });
    std::string body;
    auto n = Read(*stream, body, ctx);
    canceller.join();
    EXPECT_TRUE(IsCancelled(n.GetStatus())) << n.GetStatus();
}

TEST_F(BeastOpenTest, CloseEndsAPendingRead) {
    BeastTestServer server(SendHeaderThenIdle);
    auto transport = NewTransport(server.Url());
    auto stream = Open(*transport, Get("/api/v1/pods?watch=1"));
    ASSERT_NE(stream, nullptr);
    boost::asio::steady_timer timer(io_, milliseconds(100));
    timer.async_wait([&](const boost::system::error_code&) { stream->Close(); });
    std::string body;
    auto n = Read(*stream, body);
    EXPECT_TRUE(IsCancelled(n.GetStatus())) << n.GetStatus();
    stream->Close();  // twice is fine
    EXPECT_TRUE(IsCancelled(Read(*stream, body).GetStatus()));
}

TEST_F(BeastOpenTest, NothingIsReadUntilAsked) {
    constexpr std::size_t kTotal = std::size_t{64} << 20;
    std::atomic<std::size_t> sent = 0;
    BeastTestServer server([&](ServerExchange& exchange) -> Task<void> {
        co_await exchange.StartChunked(200);
        const std::string chunk(64 << 10, 'x');
        while (sent < kTotal) {
            if (!co_await exchange.WriteChunk(chunk))
                co_return;
            sent += chunk.size();
        }
        co_await exchange.EndChunks();
    });
    auto transport = NewTransport(server.Url());
    auto stream = Open(*transport, Get("/big"));
    ASSERT_NE(stream, nullptr);
    std::this_thread::sleep_for(milliseconds(500));
    // Only what the kernel's socket buffers hold has left the server.
    EXPECT_LT(sent.load(), kTotal / 4) << "sent " << sent.load();

    std::vector<char> buffer(256 << 10);
    std::size_t received = 0;
    const auto start = Clock::now();
    for (;;) {
        auto n = RunSync(io_, stream->ReadSome(TestContext(), buffer.data(), buffer.size()));
        ASSERT_TRUE(n.Ok()) << n.GetStatus();
        if (*n == 0)
            break;
        received += *n;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_EQ(received, kTotal);
    std::cout << "loopback chunked body: " << (kTotal >> 20) / seconds << " MiB/s" << std::endl;
}

TEST_F(BeastOpenTest, AStreamsConnectionIsNeverReused) {
    BeastTestServer server([](ServerExchange& exchange) -> Task<void> { co_await exchange.Respond(200, "{}"); });
    auto transport = NewTransport(server.Url());
    {
        auto stream = Open(*transport, Get("/w"));
        ASSERT_NE(stream, nullptr);
        std::string body;
        ASSERT_TRUE(ReadAll(*stream, body).Ok());
    }
    ASSERT_TRUE(RunSync(io_, transport->Send(TestContext(), Get("/version"))).Ok());
    EXPECT_EQ(server.Connections(), 2);
}

}  // namespace
}  // namespace ctrl::rest
