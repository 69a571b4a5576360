#pragma once

#include <chrono>
#include <exception>
#include <future>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "ctrl/core/task.hpp"
#include "test/support/eventually.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

namespace ctrl::workqueue::testing {

using namespace std::chrono_literals;

using ctrl::testing::Eventually;
using ctrl::testing::kTestWait;

// How long a test watches for something that must not happen.
inline constexpr auto kQuiet = 100ms;

// An io_context run by its own threads while the object lives.
class IoThreads final {
  public:
    explicit IoThreads(int count = 1) : guard_(boost::asio::make_work_guard(io_)) {
        for (int i = 0; i < count; ++i)
            threads_.emplace_back([this] { io_.run(); });
    }
    ~IoThreads() {
        guard_.reset();
        io_.stop();
        for (auto& thread : threads_)
            thread.join();
    }
    IoThreads(const IoThreads&) = delete;
    IoThreads& operator=(const IoThreads&) = delete;

    boost::asio::any_io_executor Executor() { return io_.get_executor(); }
    bool RunsOn(std::thread::id id) const {
        for (const auto& thread : threads_) {
            if (thread.get_id() == id)
                return true;
        }
        return false;
    }

  private:
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
    std::vector<std::thread> threads_;
};

// Starts task on executor; the future holds its result.
template <typename T>
std::future<T> Spawn(const boost::asio::any_io_executor& executor, Task<T> task) {
    auto promise = std::make_shared<std::promise<T>>();
    std::future<T> future = promise->get_future();
    boost::asio::co_spawn(executor, std::move(task), [promise](std::exception_ptr error, T value) {
        if (error) {
            promise->set_exception(error);
        } else {
            promise->set_value(std::move(value));
        }
    });
    return future;
}

inline std::future<void> Spawn(const boost::asio::any_io_executor& executor, Task<void> task) {
    auto promise = std::make_shared<std::promise<void>>();
    std::future<void> future = promise->get_future();
    boost::asio::co_spawn(executor, std::move(task), [promise](std::exception_ptr error) {
        if (error) {
            promise->set_exception(error);
        } else {
            promise->set_value();
        }
    });
    return future;
}

template <typename Future>
bool ReadyWithin(Future& future, std::chrono::steady_clock::duration timeout) {
    return future.wait_for(timeout) == std::future_status::ready;
}

// Shuts the queue down when the scope ends, before the futures declared earlier are destroyed,
// so a failed test never leaves a consumer blocked forever.
template <typename Queue>
class ShutDownAtExit final {
  public:
    explicit ShutDownAtExit(Queue& queue) : queue_(queue) {}
    ~ShutDownAtExit() { queue_.ShutDown(); }
    ShutDownAtExit(const ShutDownAtExit&) = delete;
    ShutDownAtExit& operator=(const ShutDownAtExit&) = delete;

  private:
    Queue& queue_;
};

}  // namespace ctrl::workqueue::testing
