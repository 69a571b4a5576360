#include "ctrl/core/sleep.hpp"

#include <memory>
#include <mutex>

#include <boost/asio/async_result.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace ctrl {
namespace {

// What a sleep shares with its Context's cancel callback, which runs on whichever thread cancels
// and may be destroyed there after the sleep (and its io_context) is gone: a lock, whether the
// Context was cancelled, and the timer while the sleep waits on it. The timer itself lives in the
// coroutine frame, so it is destroyed on the io_context's thread before the frame ends, never by
// the callback (a deadline that fired as the sleep ended once destroyed it on the deadline thread
// after the io_context: ASan, envtest_integration_test).
struct SleepState {
    std::mutex mu;
    boost::asio::steady_timer* timer = nullptr;  // the frame's, until the wait is over
    bool cancelled = false;
};

}  // namespace

Task<Status> SleepUntil(Context ctx, std::chrono::steady_clock::time_point until) {
    if (Status err = ctx.Err(); !err.Ok())
        co_return err;
    auto executor = co_await boost::asio::this_coro::executor;
    // The timer waits for `until` only: a deadline that comes first cancels ctx, and so the wait.
    boost::asio::steady_timer timer(executor, until);
    auto state = std::make_shared<SleepState>();
    state->timer = &timer;
    const Context::CallbackId id = ctx.OnCancel([state](const Status&) {
        std::lock_guard lock(state->mu);
        state->cancelled = true;
        if (state->timer != nullptr)
            state->timer->cancel();
    });
    // A cancel that came before the wait starts makes the wait end at once (it would not be seen).
    // This lambda lives in the coroutine frame, which another thread may resume and end as soon as
    // the wait is started: what it touches after that (the lock) is kept alive by a copy on this
    // thread's stack, not by the capture, and the frame does not end (nor destroy the timer) before
    // it can take the lock after this.
    auto start_wait = [state](auto handler) {
        const std::shared_ptr<SleepState> kept = state;
        std::lock_guard lock(kept->mu);
        if (kept->cancelled)
            kept->timer->expires_at(std::chrono::steady_clock::time_point::min());
        kept->timer->async_wait(std::move(handler));
    };
    boost::system::error_code ec;
    auto token = boost::asio::redirect_error(boost::asio::use_awaitable, ec);
    co_await boost::asio::async_initiate<decltype(token), void(boost::system::error_code)>(start_wait, token);
    {
        std::lock_guard lock(state->mu);
        state->timer = nullptr;  // a callback running now or later leaves the timer alone
    }
    ctx.RemoveCallback(id);
    if (Status err = ctx.Err(); !err.Ok())
        co_return err;
    co_return OkStatus();
}

Task<Status> SleepFor(Context ctx, std::chrono::steady_clock::duration duration) {
    co_return co_await SleepUntil(std::move(ctx), std::chrono::steady_clock::now() + duration);
}

}  // namespace ctrl
