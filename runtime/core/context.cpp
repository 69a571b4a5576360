#include "ctrl/core/context.hpp"

#include <map>
#include <mutex>
#include <vector>

namespace ctrl {

struct Context::State {
    std::optional<Clock::time_point> deadline;
    std::shared_ptr<State> parent;
    CallbackId parent_callback = 0;
    const void* value_key = nullptr;
    std::shared_ptr<const void> value;

    mutable std::mutex mu;
    bool cancelled = false;
    Status reason;
    CallbackId next_id = 1;
    std::map<CallbackId, std::function<void(const Status&)>> callbacks;

    ~State() {
        if (parent)
            RemoveFrom(*parent, parent_callback);
    }

    static void RemoveFrom(State& state, CallbackId id) {
        std::lock_guard lock(state.mu);
        state.callbacks.erase(id);
    }

    void CancelWith(const Status& why) {
        std::map<CallbackId, std::function<void(const Status&)>> to_run;
        {
            std::lock_guard lock(mu);
            if (cancelled)
                return;
            cancelled = true;
            reason = why;
            to_run.swap(callbacks);
        }
        for (auto& [id, fn] : to_run)
            fn(why);
    }
};

Context Context::Background() {
    return Context(std::make_shared<State>());
}

Context Context::WithCancel(const Context& parent) {
    auto state = std::make_shared<State>();
    state->deadline = parent.state_->deadline;
    state->parent = parent.state_;
    std::weak_ptr<State> weak = state;
    state->parent_callback = Context(parent.state_).OnCancel([weak](const Status& why) {
        if (auto child = weak.lock())
            child->CancelWith(why);
    });
    return Context(std::move(state));
}

Context Context::WithDeadline(const Context& parent, Clock::time_point deadline) {
    Context child = WithCancel(parent);
    if (!child.state_->deadline || deadline < *child.state_->deadline)
        child.state_->deadline = deadline;
    return child;
}

Context Context::WithTimeout(const Context& parent, Clock::duration timeout) {
    return WithDeadline(parent, Clock::now() + timeout);
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
    if (state_->deadline && Clock::now() >= *state_->deadline)
        return TimeoutError("context deadline exceeded");
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
