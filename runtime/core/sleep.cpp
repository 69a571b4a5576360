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

// A sleep's timer and whether its Context was cancelled, under one lock. The cancel callback runs
// on whichever thread cancels, and the io_context may run on several threads: a steady_timer must
// not be cancelled on one thread while another starts a wait on it (or destroys it).
struct SleepState {
    SleepState(const boost::asio::any_io_executor& executor, std::chrono::steady_clock::time_point until)
        : timer(executor, until) {}

    std::mutex mu;
    boost::asio::steady_timer timer;
    bool cancelled = false;
};

}  // namespace

Task<Status> SleepUntil(Context ctx, std::chrono::steady_clock::time_point until) {
    if (Status err = ctx.Err(); !err.Ok())
        co_return err;
    auto executor = co_await boost::asio::this_coro::executor;
    // Shared with the cancel callback, which may run on another thread after this frame ends. The
    // timer waits for `until` only: a deadline that comes first cancels ctx, and so the wait.
    auto state = std::make_shared<SleepState>(executor, until);
    const Context::CallbackId id = ctx.OnCancel([state](const Status&) {
        std::lock_guard lock(state->mu);
        state->cancelled = true;
        state->timer.cancel();
    });
    // A cancel that came before the wait starts makes the wait end at once (it would not be seen).
    // This lambda lives in the coroutine frame, which another thread may resume and end as soon as
    // the wait is started: what it touches after that (the lock) is kept alive by a copy on this
    // thread's stack, not by the capture.
    auto start_wait = [state](auto handler) {
        const std::shared_ptr<SleepState> kept = state;
        std::lock_guard lock(kept->mu);
        if (kept->cancelled)
            kept->timer.expires_at(std::chrono::steady_clock::time_point::min());
        kept->timer.async_wait(std::move(handler));
    };
    boost::system::error_code ec;
    auto token = boost::asio::redirect_error(boost::asio::use_awaitable, ec);
    co_await boost::asio::async_initiate<decltype(token), void(boost::system::error_code)>(start_wait, token);
    ctx.RemoveCallback(id);
    if (Status err = ctx.Err(); !err.Ok())
        co_return err;
    co_return OkStatus();
}

Task<Status> SleepFor(Context ctx, std::chrono::steady_clock::duration duration) {
    co_return co_await SleepUntil(std::move(ctx), std::chrono::steady_clock::now() + duration);
}

}  // namespace ctrl
