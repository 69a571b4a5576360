#pragma once

#include <exception>
#include <memory>
#include <optional>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/core/task.hpp"

namespace ctrl::testing {

// An io_context that the test's own thread drives, with no loop thread: Spawn starts a task on it,
// RunReady runs what is ready. No timer ever fires (RunReady never waits), so a test on it shows
// that the code under test is woken by a notification, not by polling. (IoLoop, io_loop.hpp, is
// the one with a thread.)
class ManualLoop {
  public:
    ManualLoop() = default;
    ManualLoop(const ManualLoop&) = delete;
    ManualLoop& operator=(const ManualLoop&) = delete;

    // The executor to hand to the code under test.
    boost::asio::io_context::executor_type Executor() { return io_.get_executor(); }

    // Starts task on the loop (it runs on the next RunReady) and returns where its result lands once
    // it ends: empty until then. An exception from the task is thrown from RunReady.
    template <typename T>
    std::shared_ptr<std::optional<T>> Spawn(Task<T> task) {
        auto result = std::make_shared<std::optional<T>>();
        boost::asio::co_spawn(io_, std::move(task), [result](std::exception_ptr error, T value) {
            if (error)
                std::rethrow_exception(error);
            *result = std::move(value);
        });
        return result;
    }

    // Runs the handlers that are ready, and those they make ready, until none is; never waits.
    void RunReady() {
        while (io_.poll() > 0) {
        }
    }

  private:
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
};

}  // namespace ctrl::testing
