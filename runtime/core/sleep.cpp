#include "ctrl/core/sleep.hpp"

#include <memory>

#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace ctrl {

Task<Status> SleepUntil(std::chrono::steady_clock::time_point until, Context ctx) {
    if (Status err = ctx.Err(); !err.Ok())
        co_return err;
    const auto deadline = ctx.Deadline();
    const bool deadline_first = deadline && *deadline < until;
    auto executor = co_await boost::asio::this_coro::executor;
    // Shared with the cancel callback, which may run on another thread after this frame ends.
    auto timer = std::make_shared<boost::asio::steady_timer>(executor, deadline_first ? *deadline : until);
    const Context::CallbackId id =
        ctx.OnCancel([timer, executor](const Status&) { boost::asio::post(executor, [timer] { timer->cancel(); }); });
    boost::system::error_code ec;
    co_await timer->async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
    ctx.RemoveCallback(id);
    if (Status err = ctx.Err(); !err.Ok())
        co_return err;
    if (deadline_first)
        co_return TimeoutError("context deadline exceeded");
    co_return OkStatus();
}

Task<Status> SleepFor(std::chrono::steady_clock::duration duration, Context ctx) {
    co_return co_await SleepUntil(std::chrono::steady_clock::now() + duration, std::move(ctx));
}

}  // namespace ctrl
