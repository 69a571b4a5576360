#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "runtime/core/context.hpp"
#include "runtime/core/task.hpp"

namespace ctrl::rest::internal::cpprest {

// Continues a suspended coroutine with a value. Callable from any thread, any number of times:
// the first call wins, later ones do nothing. Cheap to copy.
template <typename T>
using Resume = std::function<void(T)>;

// Suspends the calling coroutine until a Resume it hands out is called, then continues it on the
// coroutine's own executor (never on the thread that called Resume: that is how pplx callbacks on
// cpprestsdk's thread pool get back onto the caller's executor). `start(resume)` runs once, on
// this thread, right after the coroutine suspends; it may call resume at once. While suspended,
// the executor counts outstanding work, so io_context::run and RunSync keep going. Every path
// must call Resume eventually: when the last copy is destroyed uncalled, the coroutine is
// destroyed without resuming.
//
// A Resume called on another thread is done with the executor before the coroutine continues:
// the coroutine first waits (briefly) for that thread to leave post(). Without this, the caller
// could finish and destroy its io_context while that thread still touches it.
template <typename T, typename Start>
Task<T> Suspend(Start start) {
    return boost::asio::async_initiate<const boost::asio::use_awaitable_t<>&, void(T)>(
        [](auto handler, Start start) {
            using Handler = decltype(handler);
            auto tracked = boost::asio::prefer(boost::asio::get_associated_executor(handler),
                                               boost::asio::execution::outstanding_work.tracked);
            using Work = decltype(tracked);
            struct Slot {
                std::mutex mu;
                std::optional<Handler> handler;
                std::optional<Work> work;
            };
            auto slot = std::make_shared<Slot>();
            slot->handler.emplace(std::move(handler));
            slot->work.emplace(std::move(tracked));
            Resume<T> resume = [slot](T value) {
                std::lock_guard lock(slot->mu);
                if (!slot->handler)
                    return;
                Work work = std::move(*slot->work);
                slot->work.reset();
                auto continuation = [slot, h = std::move(*slot->handler), value = std::move(value)]() mutable {
                    { std::lock_guard poster_is_done(slot->mu); }
                    std::move(h)(std::move(value));
                };
                slot->handler.reset();
                boost::asio::post(std::move(work), std::move(continuation));
            };
            start(std::move(resume));
        },
        boost::asio::use_awaitable, std::move(start));
}

// How a WaitUntil ended.
enum class WaitEnd { kDone, kCancelled, kDeadline };

// Waits until `arm`'s event, the cancellation of ctx or `deadline`, whichever comes first, and
// continues on the coroutine's executor. `arm(resume)` is called once, on this thread: it must
// arrange for resume(WaitEnd::kDone) when its event happens (or call it at once when it already
// has). After an early end the event may still fire later; resume then does nothing.
// The deadline's timer runs on `executor`.
Task<WaitEnd> WaitUntil(boost::asio::any_io_executor executor, std::function<void(Resume<WaitEnd>)> arm, Context ctx,
                        std::optional<Context::Clock::time_point> deadline);

// A deadline and what it is, for messages ("request timeout of 5000 ms", "context deadline").
struct Deadline {
    std::optional<Context::Clock::time_point> at;
    std::string what;
};

// The earlier of the request timeout (zero: none) counted from now and the Context's deadline.
Deadline RequestDeadline(std::chrono::milliseconds timeout, const Context& ctx);

}  // namespace ctrl::rest::internal::cpprest
