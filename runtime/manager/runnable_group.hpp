#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/core/context.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/manager/runnable.hpp"

namespace ctrl::manager {

// One stage of the manager's start and stop order (controller-runtime's runnableGroup): the
// runnables of a group share a context; Start launches every runnable added so far and each one
// added later at once; Stop cancels the context; Wait awaits them all. A runnable that returns an
// error reports it through on_error (the manager then stops). Thread-safe.
class RunnableGroup final {
  public:
    RunnableGroup(std::string name, boost::asio::any_io_executor executor, std::function<void(Status)> on_error);
    RunnableGroup(const RunnableGroup&) = delete;
    RunnableGroup& operator=(const RunnableGroup&) = delete;

    // Adds a runnable; started at once when the group has started. An error once it stopped.
    Status Add(std::shared_ptr<Runnable> runnable);
    // Starts every runnable with a child of parent (no-op when started before).
    void Start(const Context& parent);
    bool Started() const;
    // Cancels the group's context: its runnables return once they have stopped.
    void Stop();
    // Waits until every started runnable has returned, or ctx ends (its error then).
    Task<Status> Wait(Context ctx);
    std::size_t Size() const;

  private:
    struct State {
        std::mutex mu;
        int running = 0;
        bool stopping = false;
        std::shared_ptr<Notification> all_done = std::make_shared<Notification>();
    };
    void Launch(const std::shared_ptr<Runnable>& runnable);

    const std::string name_;
    const boost::asio::any_io_executor executor_;
    const std::function<void(Status)> on_error_;
    const log::Logger logger_;
    mutable std::mutex mu_;
    std::vector<std::shared_ptr<Runnable>> runnables_;
    bool started_ = false;
    bool stopped_ = false;
    Context ctx_ = Context::Background();
    const std::shared_ptr<State> state_ = std::make_shared<State>();
};

}  // namespace ctrl::manager
