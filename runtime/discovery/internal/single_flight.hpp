#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/core/task.hpp"

#include <boost/asio/async_result.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace ctrl::discovery::internal {

// Runs at most one call per key at a time; callers that ask for a key while its call runs wait
// for that call's result instead of starting their own (Go's singleflight, for coroutines on any
// executor and any thread). Waiting holds no thread: each waiter resumes on its own executor.
// T must be copyable (every waiter gets a copy).
template <typename T>
class SingleFlight final {
  public:
    // The result of fn() for key, and whether this caller shared a call another caller started.
    struct Outcome {
        T value;
        bool shared = false;
    };

    Task<Outcome> Do(const std::string& key, std::function<Task<T>()> fn) {
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
            // Named, not built inside the co_await (GCC 12 destroys such temporaries twice).
            Task<T> waiting = Wait(call);
            T shared_value = co_await std::move(waiting);
            co_return Outcome{std::move(shared_value), true};
        }

        T value = co_await fn();
        std::vector<std::function<void()>> waiters;
        {
            std::lock_guard lock(mu_);
            calls_.erase(key);
            std::lock_guard call_lock(call->mu);
            call->result = value;
            waiters.swap(call->waiters);
        }
        for (auto& resume : waiters)
            resume();
        co_return Outcome{std::move(value), false};
    }

    // Number of calls running now (for tests).
    std::size_t InFlight() const {
        std::lock_guard lock(mu_);
        return calls_.size();
    }

  private:
    struct Call {
        std::mutex mu;
        std::optional<T> result;
        std::vector<std::function<void()>> waiters;
    };

    // Suspends until call has a result, then resumes on the caller's executor.
    static Task<T> Wait(std::shared_ptr<Call> call) {
        // Named, not a temporary of the co_await: GCC 12 destroyed the lambda (and its reference
        // to call) twice, freeing call while waiters still used it.
        auto initiation = [call](auto handler) {
            auto executor = boost::asio::get_associated_executor(handler);
            auto shared = std::make_shared<decltype(handler)>(std::move(handler));
            auto work = std::make_shared<boost::asio::executor_work_guard<decltype(executor)>>(executor);
            auto resume = [shared, work, executor] { boost::asio::post(executor, [shared, work] { (*shared)(); }); };
            std::unique_lock lock(call->mu);
            if (call->result) {
                lock.unlock();
                resume();
            } else {
                call->waiters.push_back(std::move(resume));
            }
        };
        co_await boost::asio::async_initiate<decltype(boost::asio::use_awaitable), void()>(initiation,
                                                                                           boost::asio::use_awaitable);
        std::lock_guard lock(call->mu);
        co_return *call->result;
    }

    mutable std::mutex mu_;
    std::map<std::string, std::shared_ptr<Call>> calls_;
};

}  // namespace ctrl::discovery::internal
