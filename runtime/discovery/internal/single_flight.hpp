#pragma once

#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "ctrl/core/await_safe_function.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::discovery::internal {

// Runs at most one call per key at a time; callers that ask for a key while its call runs wait
// for that call's result instead of starting their own (Go's singleflight, for coroutines on any
// executor and any thread). Waiting holds no thread: each waiter resumes on its own executor.
// A waiter whose own Context ends first returns that Context's error; a call that throws gives
// its waiters an Internal error naming the exception (the leader gets the exception), and the
// next call of the key starts a new round. T must be copyable (every waiter gets a copy) and
// constructible from a Status (Status, StatusOr<U>).
template <typename T>
class SingleFlight final {
    static_assert(std::is_constructible_v<T, Status>, "SingleFlight<T>: T must be constructible from a Status");

  public:
    // The result of fn() for key, and whether this caller shared a call another caller started.
    struct Outcome {
        T value;
        bool shared = false;
    };

    // Awaited, so fn refuses a temporary lambda that captures by copy (AwaitSafeFunction).
    Task<Outcome> Do(Context ctx, const std::string& key, AwaitSafeFunction<Task<T>()> fn) {
        std::shared_ptr<Call> call;
        bool leader = false;
        {
            std::lock_guard lock(mu_);
            auto [it, inserted] = calls_.try_emplace(key);
            if (inserted)
                it->second = std::make_shared<Call>();
            call = it->second;
            leader = inserted;
        }
        if (!leader) {
            if (Status waited = co_await call->done.Wait(std::move(ctx)); !waited.Ok())
                co_return Outcome{T(std::move(waited)), true};
            co_return Outcome{*call->result, true};
        }

        std::optional<T> value;
        std::exception_ptr thrown;
        try {
            value.emplace(co_await fn());
        } catch (...) {
            thrown = std::current_exception();
        }
        {
            std::lock_guard lock(mu_);
            calls_.erase(key);
        }
        // Written before Notify, read by waiters only after it: no lock needed.
        call->result.emplace(value ? *value : T(ThrownError(key, thrown)));
        call->done.Notify();
        if (thrown)
            std::rethrow_exception(thrown);
        co_return Outcome{std::move(*value), false};
    }

    // Number of calls running now (for tests).
    std::size_t InFlight() const {
        std::lock_guard lock(mu_);
        return calls_.size();
    }

  private:
    struct Call {
        Notification done;
        std::optional<T> result;
    };

    static Status ThrownError(const std::string& key, const std::exception_ptr& thrown) {
        try {
            std::rethrow_exception(thrown);
        } catch (const std::exception& e) {
            return InternalError("the shared call for \"" + key + "\" threw: " + e.what());
        } catch (...) {
            return InternalError("the shared call for \"" + key + "\" threw a non-standard exception");
        }
    }

    mutable std::mutex mu_;
    std::map<std::string, std::shared_ptr<Call>> calls_;
};

}  // namespace ctrl::discovery::internal
