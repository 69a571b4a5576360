#include "ctrl/manager/runnable_group.hpp"

#include <exception>
#include <utility>

#include <boost/asio/co_spawn.hpp>

namespace ctrl::manager {

RunnableGroup::RunnableGroup(std::string name, boost::asio::any_io_executor executor,
                             std::function<void(Status)> on_error)
    : name_(std::move(name)),
      executor_(std::move(executor)),
      on_error_(std::move(on_error)),
      logger_(log::Logger().WithName("manager").WithValues("group", name_)) {}

Status RunnableGroup::Add(std::shared_ptr<Runnable> runnable) {
    if (!runnable)
        return BadRequestError("a null runnable cannot be added to the " + name_ + " group");
    std::lock_guard lock(mu_);
    if (stopped_)
        return BadRequestError("the manager is stopping: cannot add " + runnable->Name() + " to the " + name_ +
                               " group");
    runnables_.push_back(runnable);
    if (started_)
        Launch(runnable);
    return OkStatus();
}

void RunnableGroup::Start(const Context& parent) {
    std::lock_guard lock(mu_);
    if (started_ || stopped_)
        return;
    started_ = true;
    ctx_ = Context::WithCancel(parent);
    for (const std::shared_ptr<Runnable>& runnable : runnables_)
        Launch(runnable);
}

bool RunnableGroup::Started() const {
    std::lock_guard lock(mu_);
    return started_;
}

std::size_t RunnableGroup::Size() const {
    std::lock_guard lock(mu_);
    return runnables_.size();
}

void RunnableGroup::Launch(const std::shared_ptr<Runnable>& runnable) {
    {
        std::lock_guard lock(state_->mu);
        ++state_->running;
    }
    logger_.V(1).Info("Starting runnable", "runnable", runnable->Name());
    boost::asio::co_spawn(executor_, runnable->Run(ctx_),
                          [state = state_, runnable = std::shared_ptr<Runnable>(runnable), on_error = on_error_,
                           logger = logger_](const std::exception_ptr& error, Status status) mutable {
                              if (error)
                                  status = InternalError(runnable->Name() + " threw an exception");
                              if (!status.Ok()) {
                                  logger.Error(status, "A runnable failed", "runnable", runnable->Name());
                                  on_error(status.Annotate(runnable->Name()));
                              }
                              // Let go of the runnable before the group may count as stopped: the
                              // manager's owner may then destroy what the runnable publishes to.
                              runnable.reset();
                              std::lock_guard lock(state->mu);
                              if (--state->running == 0 && state->stopping)
                                  state->all_done->Notify();
                          });
}

void RunnableGroup::Stop() {
    std::lock_guard lock(mu_);
    stopped_ = true;
    ctx_.Cancel(CancelledError("the manager is stopping the " + name_ + " group"));
    std::lock_guard state_lock(state_->mu);
    state_->stopping = true;
    if (state_->running == 0)
        state_->all_done->Notify();
}

Task<Status> RunnableGroup::Wait(Context ctx) {
    const std::shared_ptr<Notification> done = state_->all_done;
    co_return co_await done->Wait(ctx);
}

}  // namespace ctrl::manager
