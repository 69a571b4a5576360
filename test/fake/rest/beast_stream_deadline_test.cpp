// The Beast BodyStream's deadlines across reads: one watchdog serves every read of a stream, so
// these check that data keeps a stream alive past many idle periods, that time between reads is
// not idle time, and that each read honours its own Context's deadline and cancel.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

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
using ctrl::testing::Within;
using std::chrono::milliseconds;

class BeastStreamDeadlineTest : public ::testing::Test {
  protected:
    std::unique_ptr<BodyStream> Open(const std::string& server, milliseconds idle_timeout) {
        TransportOptions options;
        options.server = server;
        options.idle_timeout = idle_timeout;
        auto transport = NewBeastTransport(io_.get_executor(), std::move(options));
        EXPECT_TRUE(transport.Ok()) << transport.GetStatus();
        if (!transport.Ok())
            return nullptr;
        transport_ = std::move(transport).Value();
        auto stream = RunSync(io_, transport_->Open(TestContext(), Get("/api/v1/pods?watch=1")));
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
    // Reads until some bytes arrive or the read fails.
    StatusOr<std::size_t> ReadSome(BodyStream& stream, std::string& into) {
        return ReadSome(TestContext(), stream, into);
    }
    StatusOr<std::size_t> ReadSome(Context ctx, BodyStream& stream, std::string& into) {
        for (;;) {
            auto n = Read(stream, into, ctx);
            if (!n.Ok() || *n > 0)
                return n;
        }
    }
    // Runs the event loop for `duration` with no read pending, as a slow consumer leaves it.
    void RunBetweenReads(milliseconds duration) {
        const auto until = Clock::now() + duration;
        io_.restart();
        io_.run_until(until);  // returns early when no work is left
        io_.restart();
        std::this_thread::sleep_until(until);
    }

    boost::asio::io_context io_;
    std::unique_ptr<Transport> transport_;
};

// A server handler that sends one chunk, waits until `go` is set and 100 ms more, then sends a
// second chunk and ends the body.
auto SendSecondChunkWhen(std::atomic<bool>& go) {
    return [&go](ServerExchange& exchange) -> Task<void> {
        co_await exchange.StartChunked(200);
        co_await exchange.WriteChunk("first\n");
        while (!go)
            co_await exchange.Sleep(milliseconds(5));
        co_await exchange.Sleep(milliseconds(100));
        co_await exchange.WriteChunk("second\n");
        co_await exchange.EndChunks();
    };
}

// Sends one chunk, then sends nothing more.
Task<void> SendOneChunkThenIdle(ServerExchange& exchange) {
    co_await exchange.StartChunked(200);
    co_await exchange.WriteChunk("first\n");
    co_await exchange.Sleep(std::chrono::hours(1));
}

TEST_F(BeastStreamDeadlineTest, DataInsideTheIdleTimeoutKeepsTheStreamAlivePastManyPeriods) {
    constexpr int kChunks = 8;  // 250 ms apart: 2 s, five idle periods of 400 ms
    BeastTestServer server([](ServerExchange& exchange) -> Task<void> {
        co_await exchange.StartChunked(200);
        for (int i = 0; i < kChunks; ++i) {
            co_await exchange.Sleep(milliseconds(250));
            co_await exchange.WriteChunk("event\n");
        }
        co_await exchange.EndChunks();
    });
    auto stream = Open(server.Url(), milliseconds(400));
    ASSERT_NE(stream, nullptr);
    std::string body;
    for (;;) {
        auto n = Read(*stream, body);
        ASSERT_TRUE(n.Ok()) << n.GetStatus();
        if (*n == 0)
            break;
    }
    EXPECT_EQ(body.size(), kChunks * std::string("event\n").size());
}

TEST_F(BeastStreamDeadlineTest, AStreamIdleAfterDataFailsWithTheIdleTimeout) {
    BeastTestServer server(SendOneChunkThenIdle);
    auto stream = Open(server.Url(), milliseconds(200));
    ASSERT_NE(stream, nullptr);
    std::string body;
    ASSERT_TRUE(ReadSome(*stream, body).Ok());
    EXPECT_EQ(body, "first\n");
    const auto start = Clock::now();
    auto n = Read(*stream, body);
    EXPECT_GE(Clock::now() - start, milliseconds(200));
    EXPECT_TRUE(IsTimeout(n.GetStatus())) << n.GetStatus();
    EXPECT_EQ(n.GetStatus().Message(),
              "watch stream from " + server.Url() + "/api/v1/pods: idle timeout of 200ms exceeded");
    EXPECT_TRUE(IsTimeout(Read(*stream, body).GetStatus()));  // stays failed
}

// The consumer takes twice the idle timeout between two reads, with the event loop running: the
// next read still waits its own idle timeout for the server's next chunk.
TEST_F(BeastStreamDeadlineTest, TimeBetweenReadsIsNotIdleTime) {
    std::atomic<bool> consumer_done = false;
    BeastTestServer server(SendSecondChunkWhen(consumer_done));
    auto stream = Open(server.Url(), milliseconds(200));
    ASSERT_NE(stream, nullptr);
    std::string body;
    ASSERT_TRUE(ReadSome(*stream, body).Ok());
    RunBetweenReads(milliseconds(400));
    consumer_done = true;
    for (;;) {
        auto n = Read(*stream, body);
        ASSERT_TRUE(n.Ok()) << n.GetStatus();
        if (*n == 0)
            break;
    }
    EXPECT_EQ(body, "first\nsecond\n");
}

// The Context of a finished read is cancelled between reads: the next read, with another
// Context, is not affected.
TEST_F(BeastStreamDeadlineTest, CancellingAnEarlierReadsContextDoesNotEndALaterRead) {
    std::atomic<bool> cancelled = false;
    BeastTestServer server(SendSecondChunkWhen(cancelled));
    auto stream = Open(server.Url(), milliseconds(kTestWait));
    ASSERT_NE(stream, nullptr);
    auto first = Context::WithCancel(TestContext());
    std::string body;
    ASSERT_TRUE(ReadSome(first, *stream, body).Ok());
    first.Cancel(CancelledError("first read's context cancelled"));
    RunBetweenReads(milliseconds(50));
    cancelled = true;
    auto n = ReadSome(*stream, body);
    ASSERT_TRUE(n.Ok()) << n.GetStatus();
    EXPECT_EQ(body, "first\nsecond\n");
}

TEST_F(BeastStreamDeadlineTest, ALaterReadWithAnotherContextEndsWhenThatOneIsCancelled) {
    BeastTestServer server(SendOneChunkThenIdle);
    auto stream = Open(server.Url(), milliseconds(kTestWait));
    ASSERT_NE(stream, nullptr);
    const Context first = TestContext();
    std::string body;
    ASSERT_TRUE(ReadSome(first, *stream, body).Ok());
    const Context second = Context::WithCancel(Context::Background());
    std::thread canceller([second] {
        std::this_thread::sleep_for(milliseconds(150));
        second.Cancel(CancelledError("second read's context cancelled"));
    });
    auto n = Read(*stream, body, second);
    canceller.join();
    EXPECT_TRUE(IsCancelled(n.GetStatus())) << n.GetStatus();
    EXPECT_THAT(n.GetStatus().Message(), HasSubstr("second read's context cancelled"));
    EXPECT_FALSE(first.Cancelled());
}

// The first read armed the idle timeout (the test's wait); the second read's Context expires
// much sooner and ends it.
TEST_F(BeastStreamDeadlineTest, AContextDeadlineBeforeTheIdleDeadlineEndsTheRead) {
    BeastTestServer server(SendOneChunkThenIdle);
    auto stream = Open(server.Url(), milliseconds(kTestWait));
    ASSERT_NE(stream, nullptr);
    std::string body;
    ASSERT_TRUE(ReadSome(Context::Background(), *stream, body).Ok());
    const auto start = Clock::now();
    auto n = Read(*stream, body, Within(milliseconds(300)));
    const auto waited = Clock::now() - start;
    EXPECT_GE(waited, milliseconds(300));
    EXPECT_LT(waited, milliseconds(kTestWait) / 2);
    EXPECT_TRUE(IsTimeout(n.GetStatus())) << n.GetStatus();
    EXPECT_EQ(n.GetStatus().Message(), "watch stream from " + server.Url() + "/api/v1/pods: context deadline exceeded");
}

// Nothing of the stream stays behind on the event loop: its idle timer goes with it.
TEST_F(BeastStreamDeadlineTest, DestroyingAStreamBetweenReadsLeavesNoTimerBehind) {
    BeastTestServer server(SendOneChunkThenIdle);
    auto stream = Open(server.Url(), milliseconds(kTestWait));
    ASSERT_NE(stream, nullptr);
    std::string body;
    ASSERT_TRUE(ReadSome(*stream, body).Ok());
    stream.reset();
    const auto start = Clock::now();
    io_.restart();
    io_.run_for(milliseconds(kTestWait) / 2);  // returns as soon as no work is left
    EXPECT_LT(Clock::now() - start, milliseconds(kTestWait) / 4);
}

}  // namespace
}  // namespace ctrl::rest
