#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "runtime/core/context.hpp"
#include "runtime/core/task.hpp"

namespace ctrl::rest::internal {

// Suspends the calling coroutine until the completion function handed to `start` is called, or
// ctx is cancelled, or ctx's deadline passes, whichever comes first; the others are then no-ops.
// The completion function may be called from any thread, any number of times; the coroutine
// resumes on its own executor, which counts as having work until then (so io_context::run does not
// return early). T must be constructible from a Status (the cancel reason or Timeout), e.g.
// StatusOr<U>. `start` runs before this returns to the event loop and must not block. Pass it as a
// named std::function (moved in), never as a lambda written inside the co_await expression: GCC 12
// destroys such a temporary twice.
template <typename T>
Task<T> AwaitCompletion(Context ctx, std::function<void(std::function<void(T)>)> start) {
    struct Waiter {
        std::atomic<bool> done{false};
        std::function<void(T)> resume;
        std::optional<boost::asio::steady_timer> timer;
        boost::asio::any_io_executor executor;
    };
    const boost::asio::any_io_executor executor = co_await boost::asio::this_coro::executor;
    Context::CallbackId cancel_id = 0;
    T result = co_await boost::asio::async_initiate<const boost::asio::use_awaitable_t<>&, void(T)>(
        [&](auto handler) {
            auto waiter = std::make_shared<Waiter>();
            waiter->executor = executor;
            auto shared_handler = std::make_shared<decltype(handler)>(std::move(handler));
            auto tracked = boost::asio::prefer(executor, boost::asio::execution::outstanding_work.tracked);
            waiter->resume = [tracked, shared_handler](T value) {
                boost::asio::post(tracked, [shared_handler, value = std::move(value)]() mutable {
                    (*shared_handler)(std::move(value));
                });
            };
            // The first caller wins; it stops the deadline timer on the waiter's executor.
            std::function<void(T)> complete = [waiter](T value) {
                if (waiter->done.exchange(true))
                    return;
                std::function<void(T)> resume = std::move(waiter->resume);
                if (waiter->timer)
                    boost::asio::post(waiter->executor, [waiter] { waiter->timer->cancel(); });
                resume(std::move(value));
            };
            if (auto deadline = ctx.Deadline()) {
                waiter->timer.emplace(executor, *deadline);
                waiter->timer->async_wait([complete](const boost::system::error_code& error) {
                    if (!error)
                        complete(T(TimeoutError("context deadline exceeded")));
                });
            }
            cancel_id = ctx.OnCancel([complete](const Status& reason) { complete(T(reason)); });
            start(complete);
        },
        boost::asio::use_awaitable);
    ctx.RemoveCallback(cancel_id);
    co_return result;
}

}  // namespace ctrl::rest::internal
