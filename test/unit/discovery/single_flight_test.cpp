// SingleFlight with callers that wait for a running call: under GCC 12 a temporary built inside a
// co_await of its waiting path was destroyed twice, freeing the shared call while waiters used it
// (found by cache_sync_bench: 32 first uses of a kind at once hung or aborted). Waiters honour
// their own Context and survive a leading call that throws.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "ctrl/core/notification.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/core/status_or.hpp"

#include "ctrl/discovery/internal/single_flight.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::discovery::internal {
namespace {

using namespace std::chrono_literals;

using Flight = SingleFlight<StatusOr<std::string>>;

using ctrl::testing::kTestWait;
using ctrl::testing::Within;

// Waits until the test opens the gate, then returns a string too long for the small-string
// buffer (so a double destruction frees heap memory twice).
Task<StatusOr<std::string>> GatedValue(int round, boost::asio::steady_timer& gate) {
    boost::system::error_code cancelled;
    co_await gate.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, cancelled));
    co_return "the discovered value of round " + std::to_string(round) + std::string(64, '.');
}

Task<void> Caller(Flight& flight, int round, boost::asio::steady_timer& gate, std::string& into,
                  std::atomic<int>& shared) {
    std::function<Task<StatusOr<std::string>>()> fn = [round, &gate] { return GatedValue(round, gate); };
    const std::string key = "pods";
    Flight::Outcome outcome = co_await flight.Do(Within(kTestWait), key, std::move(fn));
    into = outcome.value.Ok() ? *outcome.value : outcome.value.GetStatus().ToString();
    shared += outcome.shared ? 1 : 0;
}

TEST(SingleFlightTest, ManyWaitersOnTwoThreadsGetTheLeadersValue) {
    constexpr int kRounds = 50;
    constexpr int kCallers = 32;
    Flight flight;
    for (int round = 0; round < kRounds; ++round) {
        boost::asio::io_context io;
        boost::asio::steady_timer gate(io, boost::asio::steady_timer::time_point::max());
        std::vector<std::string> values(kCallers);
        std::atomic<int> shared{0};
        for (int i = 0; i < kCallers; ++i)
            boost::asio::co_spawn(io, Caller(flight, round, gate, values[i], shared), boost::asio::detached);
        // One thread starts every caller: the first leads and waits at the gate, the others wait
        // on its call (poll returns once nothing is ready). Then two threads run the loop, the
        // gate opens, and the waiters are resumed from either thread.
        io.poll();
        io.restart();
        boost::asio::post(io, [&gate] { gate.cancel(); });
        std::thread helper([&io] { io.run(); });
        io.run();
        helper.join();
        const std::string expected = "the discovered value of round " + std::to_string(round) + std::string(64, '.');
        for (const std::string& value : values)
            ASSERT_EQ(value, expected) << "round " << round;
        EXPECT_EQ(shared, kCallers - 1);
        EXPECT_EQ(flight.InFlight(), 0u);
    }
}

// A leader that waits for release (or its deadline), then returns value or throws.
Task<StatusOr<std::string>> Held(const Notification& release, bool throws, std::string value) {
    Status released = co_await release.Wait(Within(kTestWait));
    if (throws)
        throw std::runtime_error("the server sent nonsense");
    if (!released.Ok())
        co_return released;
    co_return value;
}

// Calls flight.Do for "pods" with fn and ctx; records the outcome (or the exception's text).
Task<void> Call(Flight& flight, std::function<Task<StatusOr<std::string>>()> fn, Context ctx,
                std::optional<Flight::Outcome>& into, std::string& thrown) {
    const std::string key = "pods";
    try {
        into.emplace(co_await flight.Do(std::move(ctx), key, std::move(fn)));
    } catch (const std::exception& e) {
        thrown = e.what();
    }
}

TEST(SingleFlightTest, AWaiterWhoseContextEndsReturnsItsErrorAndTheLeaderGoesOn) {
    boost::asio::io_context io;
    Flight flight;
    Notification release;
    std::optional<Flight::Outcome> leader;
    std::optional<Flight::Outcome> waiter;
    std::string thrown;
    std::function<Task<StatusOr<std::string>>()> lead = [&release] { return Held(release, false, "v1"); };
    std::function<Task<StatusOr<std::string>>()> never = []() -> Task<StatusOr<std::string>> {
        ADD_FAILURE() << "a waiter ran its own call";
        co_return InternalError("ran");
    };
    const Context waiter_ctx = Context::WithCancel(Within(kTestWait));
    boost::asio::co_spawn(io, Call(flight, lead, Within(kTestWait), leader, thrown), boost::asio::detached);
    boost::asio::co_spawn(io, Call(flight, never, waiter_ctx, waiter, thrown), boost::asio::detached);
    io.poll();
    EXPECT_EQ(flight.InFlight(), 1u);
    waiter_ctx.Cancel(CancelledError("the reconcile was cancelled"));
    for (int i = 0; i < 1000 && !waiter; ++i)
        io.run_one_for(10ms);
    ASSERT_TRUE(waiter.has_value());
    EXPECT_TRUE(waiter->shared);
    EXPECT_TRUE(IsCancelled(waiter->value.GetStatus())) << waiter->value.GetStatus();
    EXPECT_EQ(waiter->value.GetStatus().Message(), "the reconcile was cancelled");
    EXPECT_FALSE(leader.has_value());

    release.Notify();
    io.restart();
    io.run_for(kTestWait);
    ASSERT_TRUE(leader.has_value());
    EXPECT_FALSE(leader->shared);
    ASSERT_TRUE(leader->value.Ok()) << leader->value.GetStatus();
    EXPECT_EQ(*leader->value, "v1");
    EXPECT_EQ(flight.InFlight(), 0u);
}

TEST(SingleFlightTest, WaitersOfALeaderThatThrowsGetInternalAndTheNextCallStartsANewRound) {
    boost::asio::io_context io;
    Flight flight;
    Notification release;
    std::optional<Flight::Outcome> leader;
    std::vector<std::optional<Flight::Outcome>> waiters(3);
    std::string thrown;
    std::function<Task<StatusOr<std::string>>()> lead = [&release] { return Held(release, true, ""); };
    boost::asio::co_spawn(io, Call(flight, lead, Within(kTestWait), leader, thrown), boost::asio::detached);
    for (auto& waiter : waiters)
        boost::asio::co_spawn(io, Call(flight, lead, Within(kTestWait), waiter, thrown), boost::asio::detached);
    io.poll();
    release.Notify();
    io.restart();
    io.run_for(kTestWait);
    EXPECT_FALSE(leader.has_value());
    EXPECT_EQ(thrown, "the server sent nonsense");
    for (const auto& waiter : waiters) {
        ASSERT_TRUE(waiter.has_value());
        EXPECT_TRUE(waiter->shared);
        EXPECT_EQ(waiter->value.GetStatus().Code(), StatusCode::kInternal) << waiter->value.GetStatus();
        EXPECT_NE(waiter->value.GetStatus().Message().find("the server sent nonsense"), std::string::npos)
            << waiter->value.GetStatus();
    }
    EXPECT_EQ(flight.InFlight(), 0u);

    Notification released;
    released.Notify();
    std::optional<Flight::Outcome> next;
    std::function<Task<StatusOr<std::string>>()> fine = [&released] { return Held(released, false, "v2"); };
    boost::asio::co_spawn(io, Call(flight, fine, Within(kTestWait), next, thrown), boost::asio::detached);
    io.restart();
    io.run_for(kTestWait);
    ASSERT_TRUE(next.has_value());
    EXPECT_FALSE(next->shared);
    ASSERT_TRUE(next->value.Ok()) << next->value.GetStatus();
    EXPECT_EQ(*next->value, "v2");
}

}  // namespace
}  // namespace ctrl::discovery::internal
