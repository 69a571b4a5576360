#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "ctrl/core/await_safe_function.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl {

// Continues a suspended coroutine with a value (see Suspend). Callable from any thread, any number
// of times: the first call wins, later ones do nothing. Cheap to copy.
template <typename T>
using Resume = std::function<void(T)>;

// Suspends the calling coroutine until a Resume it hands out is called, then continues it on the
// coroutine's own executor, never on the thread that called Resume (a producer thread, a callback
// of another library's thread pool, a caller holding a lock). `start(resume)` runs once, on this
// thread, right after the coroutine suspends; it may call resume at once and must not block. The
// coroutine continues only after start returns, even when another thread calls resume first, so
// start may use the coroutine's locals until it returns. While
// suspended, the executor counts outstanding work, so io_context::run and RunSync keep going. Every
// path must call Resume eventually: when the last copy is destroyed uncalled, the coroutine is
// destroyed without resuming.
//
// A Resume called on another thread is done with the executor before the coroutine continues (the
// coroutine first waits, briefly, for that thread to leave post()), so the caller may destroy its
// io_context as soon as the coroutine ends.
//
// A lambda written inside the co_await expression must have a trivial destructor ([&], [this]);
// one that captures by copy does not compile (AwaitSafeCallable: GCC 12 destroys it twice): name it.
template <typename T, AwaitSafeCallable Start>
Task<T> Suspend(Start&& start) {
    using Stored = std::decay_t<Start>;
    return boost::asio::async_initiate<const boost::asio::use_awaitable_t<>&, void(T)>(
        [](auto handler, Stored start) {
            using Handler = decltype(handler);
            auto tracked = boost::asio::prefer(boost::asio::get_associated_executor(handler),
                                               boost::asio::execution::outstanding_work.tracked);
            using Work = decltype(tracked);
            // `starting` holds back a Resume called before start returns (on this thread or any
            // other): the coroutine continues only after start is done with its frame.
            struct Slot {
                std::mutex mu;
                std::optional<Handler> handler;
                std::optional<Work> work;
                bool starting = true;
                std::optional<T> early;
            };
            // Called with mu held: hands the value to the coroutine's executor, once.
            auto post_locked = [](const std::shared_ptr<Slot>& self, T value) {
                Work tracked_work = std::move(*self->work);
                self->work.reset();
                auto continuation = [self, h = std::move(*self->handler), value = std::move(value)]() mutable {
                    { std::lock_guard poster_is_done(self->mu); }
                    std::move(h)(std::move(value));
                };
                self->handler.reset();
                boost::asio::post(std::move(tracked_work), std::move(continuation));
            };
            auto slot = std::make_shared<Slot>();
            slot->handler.emplace(std::move(handler));
            slot->work.emplace(std::move(tracked));
            Resume<T> resume = [slot, post_locked](T value) {
                std::lock_guard lock(slot->mu);
                if (!slot->handler || slot->early)
                    return;
                if (slot->starting)
                    slot->early.emplace(std::move(value));
                else
                    post_locked(slot, std::move(value));
            };
            start(std::move(resume));
            std::lock_guard lock(slot->mu);
            slot->starting = false;
            if (slot->early) {
                T value = std::move(*slot->early);
                slot->early.reset();
                post_locked(slot, std::move(value));
            }
        },
        boost::asio::use_awaitable, Stored(std::forward<Start>(start)));
}

// Refused: a temporary start whose destructor is not trivial (see above).
template <typename T, internal::NotAwaitSafeCallable Start>
Task<T> Suspend(Start&& start) = delete;  // a temporary capturing by copy: name it first (GCC 12 frees it twice)

// Suspend, ended early by ctx: the value handed to the Resume, or T(ctx's error) when ctx is
// cancelled or its deadline fires first (the deadline's cause, a Timeout). After an early end, the
// Resume may still be called; it then does nothing. T must be constructible from a Status (Status,
// StatusOr<U>). Arms no timer: the Context's deadline cancels it by itself.
template <typename T>
Task<T> Suspend(Context ctx, AwaitSafeFunction<void(Resume<T>)> start) {
    if (Status err = ctx.Err(); !err.Ok())
        co_return T(std::move(err));
    Context::CallbackId cancel_id = 0;
    auto arm = [&](Resume<T> resume) {
        cancel_id = ctx.OnCancel([resume](const Status& reason) { resume(T(reason)); });
        start(std::move(resume));
    };
    T result = co_await Suspend<T>(std::move(arm));
    ctx.RemoveCallback(cancel_id);
    co_return result;
}

}  // namespace ctrl
