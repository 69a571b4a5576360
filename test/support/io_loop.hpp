#pragma once

#include <thread>
#include <utility>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::testing {

// An io_context that one thread runs from construction until Stop (or destruction): what an
// integration test fixture hands to the code under test, and Run to wait for a task from the test's
// own thread.
class IoLoop {
  public:
    IoLoop() : thread_([this] { io_.run(); }) {}
    ~IoLoop() { Stop(); }
    IoLoop(const IoLoop&) = delete;
    IoLoop& operator=(const IoLoop&) = delete;

    boost::asio::io_context::executor_type Executor() { return io_.get_executor(); }

    // Runs task on the loop and returns its result.
    template <typename T>
    T Run(Task<T> task) {
        return RunOn(io_.get_executor(), std::move(task));
    }

    // The loop thread's handle (e.g. for its CPU clock).
    std::thread::native_handle_type NativeHandle() { return thread_.native_handle(); }

    // Ends the loop (handlers not yet run are dropped) and joins its thread. Once.
    void Stop() {
        if (!thread_.joinable())
            return;
        work_.reset();
        io_.stop();
        thread_.join();
    }

  private:
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
    std::thread thread_;
};

}  // namespace ctrl::testing
