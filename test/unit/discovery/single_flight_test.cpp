// SingleFlight with callers that wait for a running call: under GCC 12 a temporary built inside a
// co_await of its waiting path was destroyed twice, freeing the shared call while waiters used it
// (found by cache_sync_bench: 32 first uses of a kind at once hung or aborted).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
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

#include "runtime/discovery/internal/single_flight.hpp"

namespace ctrl::discovery::internal {
namespace {

using namespace std::chrono_literals;

// Waits until the test opens the gate, then returns a string too long for the small-string
// buffer (so a double destruction frees heap memory twice).
Task<std::string> GatedValue(int round, boost::asio::steady_timer& gate) {
    boost::system::error_code cancelled;
    co_await gate.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, cancelled));
    co_return "the discovered value of round " + std::to_string(round) + std::string(64, '.');
}

Task<void> Caller(SingleFlight<std::string>& flight, int round, boost::asio::steady_timer& gate, std::string& into,
                  std::atomic<int>& shared) {
    std::function<Task<std::string>()> fn = [round, &gate] { return GatedValue(round, gate); };
    const std::string key = "pods";
    SingleFlight<std::string>::Outcome outcome = co_await flight.Do(key, std::move(fn));
    into = std::move(outcome.value);
    shared += outcome.shared ? 1 : 0;
}

TEST(SingleFlightTest, ManyWaitersOnTwoThreadsGetTheLeadersValue) {
    constexpr int kRounds = 50;
    constexpr int kCallers = 32;
    SingleFlight<std::string> flight;
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

}  // namespace
}  // namespace ctrl::discovery::internal
