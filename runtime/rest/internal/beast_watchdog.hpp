#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/strand.hpp>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"

namespace ctrl::rest::internal {

using Strand = boost::asio::strand<boost::asio::any_io_executor>;
using Clock = std::chrono::steady_clock;

// A point in time after which an operation is abandoned, and how to say so in a message.
struct Deadline {
    std::optional<Clock::time_point> at;  // none: no deadline
    std::string what;                     // "request timeout of 5s", "context deadline"
};

// The earlier of two deadlines (a when they are equal; the one with a time when the other has
// none), by reference: its text is not copied.
const Deadline& Earliest(const Deadline& a, const Deadline& b);
// "5s", "250ms", "1.5s": for messages.
std::string FormatDuration(std::chrono::milliseconds duration);

// Stops an operation on a connection when its Context is cancelled (a Context's deadline cancels
// it by itself, so the watchdog only listens for that) or when the transport's own deadline
// passes (request, connect and idle timeouts, given by ExpireAt): it runs `abort` (which closes
// the connection, so the pending I/O fails) on the connection's strand, at most once. Boost 1.74
// has no per-operation cancellation, hence this. The caller
// must create, re-arm, pause, resume and destroy it on that strand, and keep whatever `abort`
// touches alive until the watchdog is destroyed or disarmed.
//
// Moving a deadline later costs no timer call: the timer stays armed for the earlier time and,
// when it wakes before the current deadline, sleeps again for the rest. So a watchdog kept
// across many operations (a body read in pieces) re-arms about once per deadline period.
class BeastWatchdog final {
  public:
    BeastWatchdog(const Context& ctx, Strand strand, std::function<void()> abort);
    BeastWatchdog(const BeastWatchdog&) = delete;
    BeastWatchdog& operator=(const BeastWatchdog&) = delete;
    ~BeastWatchdog();

    // Replaces the transport's deadline (none: no deadline).
    void ExpireAt(const Deadline& deadline);
    // Until Resume, neither the deadline nor a cancel aborts: between two operations.
    void Pause();
    // Watches ctx from now on instead of the Context it watched, and aborts again.
    void Resume(const Context& ctx);
    // From now on, never aborts.
    void Disarm();
    // OK while it has not fired; else Timeout("<what> exceeded") or the Context's cancel reason.
    const Status& Fired() const;

  private:
    struct State;
    void Watch(const Context& ctx);

    std::shared_ptr<State> state_;
    Context ctx_;
    Context::CallbackId callback_id_ = 0;
};

}  // namespace ctrl::rest::internal
