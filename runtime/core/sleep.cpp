#include "ctrl/core/sleep.hpp"

#include <memory>

#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace ctrl {

Task<Status> SleepUntil(Context ctx, std::chrono::steady_clock::time_point until) {
    if (Status err = ctx.Err(); !err.Ok())
        co_return err;
    auto executor = co_await boost::asio::this_coro::executor;
    // Shared with the cancel callback, which may run on another thread after this frame ends. The
    // timer waits for `until` only: a deadline that comes first cancels ctx, and so the wait.
    auto timer = std::make_shared<boost::asio::steady_timer>(executor, until);
    const Context::CallbackId id =
        ctx.OnCancel([timer, executor](const Status&) { boost::asio::post(executor, [timer] { timer->cancel(); }); });
    boost::system::error_code ec;
    co_await timer->async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
    ctx.RemoveCallback(id);
    if (Status err = ctx.Err(); !err.Ok())
        co_return err;
    co_return OkStatus();
}

Task<Status> SleepFor(Context ctx, std::chrono::steady_clock::duration duration) {
    co_return co_await SleepUntil(std::move(ctx), std::chrono::steady_clock::now() + duration);
}

}  // namespace ctrl
