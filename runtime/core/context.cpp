#include "ctrl/core/context.hpp"

#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "ctrl/core/internal/deadline_service.hpp"

namespace ctrl {

using internal::DeadlineService;

struct Context::State {
    // Both set before the context is handed out, then never changed.
    std::optional<Clock::time_point> deadline;
    Status deadline_cause;  // the reason when the deadline fires (a Timeout)
    std::shared_ptr<State> parent;
    CallbackId parent_callback = 0;
    const void* value_key = nullptr;
    std::shared_ptr<const void> value;

    mutable std::mutex mu;
    bool cancelled = false;
    Status reason;
    CallbackId next_id = 1;
    std::map<CallbackId, std::function<void(const Status&)>> callbacks;
    // This context's own deadline in the deadline service (none when it inherits its parent's).
    DeadlineService::Handle deadline_handle;

    ~State() {
        if (parent)
            RemoveFrom(*parent, parent_callback);
        if (deadline_handle.id != 0)
            DeadlineService::Get().Remove(deadline_handle);
    }

    static void RemoveFrom(State& state, CallbackId id) {
        std::lock_guard lock(state.mu);
        state.callbacks.erase(id);
    }

    void CancelWith(const Status& why) {
        std::map<CallbackId, std::function<void(const Status&)>> to_run;
        DeadlineService::Handle handle;
        {
            std::lock_guard lock(mu);
            if (cancelled)
                return;
            cancelled = true;
            reason = why;
            to_run.swap(callbacks);
            handle = std::exchange(deadline_handle, {});
        }
        if (handle.id != 0)
            DeadlineService::Get().Remove(handle);  // ended first: the deadline is not needed
        for (auto& [id, fn] : to_run)
            fn(why);
    }

    // Registers this context's own deadline; the service cancels it then. state is new and
    // not yet handed out, but its parent may cancel it meanwhile.
    static void ArmDeadline(const std::shared_ptr<State>& state) {
        std::weak_ptr<State> weak = state;
        std::lock_guard lock(state->mu);
        if (state->cancelled)
            return;
        state->deadline_handle = DeadlineService::Get().Add(*state->deadline, [weak] {
            if (auto fired = weak.lock())
                fired->CancelWith(fired->deadline_cause);
        });
    }
};

Context Context::Background() {
    return Context(std::make_shared<State>());
}

Context Context::WithCancel(const Context& parent) {
    auto state = std::make_shared<State>();
    state->deadline = parent.state_->deadline;
    state->deadline_cause = parent.state_->deadline_cause;
    state->parent = parent.state_;
    std::weak_ptr<State> weak = state;
    state->parent_callback = Context(parent.state_).OnCancel([weak](const Status& why) {
        if (auto child = weak.lock())
            child->CancelWith(why);
    });
    return Context(std::move(state));
}

Context Context::WithDeadline(const Context& parent, Clock::time_point deadline, Status cause) {
    Context child = WithCancel(parent);
    State& state = *child.state_;
    if (state.deadline && *state.deadline <= deadline)
        return child;  // the parent's deadline comes first and cancels this child with it
    state.deadline = deadline;
    state.deadline_cause = cause.Ok() ? TimeoutError("context deadline exceeded") : std::move(cause);
    if (deadline <= Clock::now())
        state.CancelWith(state.deadline_cause);
    else
        State::ArmDeadline(child.state_);
    return child;
}

Context Context::WithTimeout(const Context& parent, Clock::duration timeout, Status cause) {
    return WithDeadline(parent, Clock::now() + timeout, std::move(cause));
}

Context Context::WithValue(const Context& parent, const void* key, std::shared_ptr<const void> value) {
    Context child = WithCancel(parent);
    child.state_->value_key = key;
    child.state_->value = std::move(value);
    return child;
}

std::shared_ptr<const void> Context::Value(const void* key) const {
    for (const State* state = state_.get(); state != nullptr; state = state->parent.get())
        if (state->value_key == key)
            return state->value;
    return nullptr;
}

void Context::Cancel(Status reason) const {
    if (reason.Ok())
        reason = CancelledError("context cancelled");
    state_->CancelWith(reason);
}

bool Context::Cancelled() const {
    std::lock_guard lock(state_->mu);
    return state_->cancelled;
}

std::optional<Context::Clock::time_point> Context::Deadline() const {
    return state_->deadline;
}

std::optional<Context::Clock::duration> Context::Remaining() const {
    if (!state_->deadline)
        return std::nullopt;
    const auto left = *state_->deadline - Clock::now();
    return left > Clock::duration::zero() ? left : Clock::duration::zero();
}

Status Context::Err() const {
    {
        std::lock_guard lock(state_->mu);
        if (state_->cancelled)
            return state_->reason;
    }
    // Passed, and the deadline thread is about to fire it.
    if (state_->deadline && Clock::now() >= *state_->deadline)
        return state_->deadline_cause;
    return OkStatus();
}

Context::CallbackId Context::OnCancel(std::function<void(const Status&)> fn) const {
    Status reason;
    {
        std::lock_guard lock(state_->mu);
        if (!state_->cancelled) {
            const CallbackId id = state_->next_id++;
            state_->callbacks.emplace(id, std::move(fn));
            return id;
        }
        reason = state_->reason;
    }
    fn(reason);
    return 0;
}

void Context::RemoveCallback(CallbackId id) const {
    State::RemoveFrom(*state_, id);
}

}  // namespace ctrl
