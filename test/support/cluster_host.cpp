#include "test/support/cluster_host.hpp"

#include <utility>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/core/notification.hpp"

namespace ctrl::testing {

struct ClusterHost::RunState {
    std::mutex mu;
    int running = 0;
    bool closed = false;  // Run stopped waiting: no new task
    Status first_error;
    Notification all_done;
};

void ClusterHost::Launch(Task<Status> task) {
    std::shared_ptr<RunState> state = state_;
    {
        std::lock_guard lock(state->mu);
        ++state->running;
    }
    boost::asio::co_spawn(cluster_.GetExecutor(), std::move(task), [state](std::exception_ptr error, Status status) {
        std::lock_guard lock(state->mu);
        if (error)
            status = InternalError("a runnable threw");
        if (!status.Ok() && state->first_error.Ok())
            state->first_error = status;
        if (--state->running == 0 && state->closed)
            state->all_done.Notify();
    });
}

Status ClusterHost::Add(std::shared_ptr<controller::Controller> controller) {
    std::lock_guard lock(mu_);
    controllers_.push_back(controller);
    if (running_)
        Launch(controller->Run(run_ctx_));
    return OkStatus();
}

std::vector<std::shared_ptr<controller::Controller>> ClusterHost::Controllers() const {
    std::lock_guard lock(mu_);
    return controllers_;
}

Task<Status> ClusterHost::Run(Context ctx) {
    {
        std::lock_guard lock(mu_);
        if (running_)
            co_return AlreadyExistsError("the host runs already");
        running_ = true;
        run_ctx_ = ctx;
        state_ = std::make_shared<RunState>();
        Launch(cluster_.Run(ctx));
        for (const std::shared_ptr<controller::Controller>& controller : controllers_)
            Launch(controller->Run(ctx));
    }
    const Notification never;
    (void)co_await never.Wait(ctx);
    std::shared_ptr<RunState> state = state_;
    {
        std::lock_guard lock(state->mu);
        state->closed = true;
        if (state->running == 0)
            state->all_done.Notify();
    }
    (void)co_await state->all_done.Wait(Context::Background());
    std::lock_guard lock(state->mu);
    co_return state->first_error;
}

}  // namespace ctrl::testing
