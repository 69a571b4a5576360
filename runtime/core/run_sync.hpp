#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <future>
#include <optional>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/core/task.hpp"

namespace ctrl {

// Runs a Task to completion on io and returns its result: for tests, command-line tools and
// code that is not a coroutine. io must not be running on another thread; RunSync runs it on
// the calling thread until the task ends and leaves it restartable.
template <typename T>
T RunSync(boost::asio::io_context& io, Task<T> task) {
    std::optional<T> result;
    std::exception_ptr error;
    boost::asio::co_spawn(io, std::move(task), [&](std::exception_ptr e, T value) {
        error = e;
        if (!e)
            result.emplace(std::move(value));
    });
    io.restart();
    while (!result && !error && io.run_one() > 0) {
    }
    io.restart();
    if (error)
        std::rethrow_exception(error);
    if (!result) {
        // The io_context ran out of work before the task finished: a handler was lost.
        std::fputs("ctrl::RunSync: the io_context ran out of work before the task finished\n", stderr);
        std::abort();
    }
    return std::move(*result);
}

// Runs a Task on an executor that other threads run, and blocks until it ends.
template <typename T, typename Executor>
T RunOn(const Executor& executor, Task<T> task) {
    std::promise<T> promise;
    std::future<T> future = promise.get_future();
    boost::asio::co_spawn(executor, std::move(task), [&promise](std::exception_ptr e, T value) {
        if (e) {
            promise.set_exception(e);
        } else {
            promise.set_value(std::move(value));
        }
    });
    return future.get();
}

}  // namespace ctrl
