#include "ctrl/core/notification.hpp"

#include <utility>

namespace ctrl {

Notification::Notification() : state_(std::make_shared<State>()) {}

void Notification::Notify() {
    std::map<uint64_t, Resume<Status>> waiters;
    {
        std::lock_guard lock(state_->mu);
        if (state_->notified)
            return;
        state_->notified = true;
        waiters.swap(state_->waiters);
    }
    for (auto& [id, resume] : waiters)
        resume(OkStatus());
}

bool Notification::HasBeenNotified() const {
    std::lock_guard lock(state_->mu);
    return state_->notified;
}

Task<Status> Notification::Wait(Context ctx) const {
    if (HasBeenNotified())
        co_return OkStatus();
    std::shared_ptr<State> state = state_;
    uint64_t id = 0;
    // Named, not built inside the co_await expression (GCC 12 destroys such temporaries twice).
    std::function<void(Resume<Status>)> enlist = [&state, &id](Resume<Status> resume) {
        {
            std::lock_guard lock(state->mu);
            if (!state->notified) {
                id = state->next_id++;
                state->waiters.emplace(id, std::move(resume));
                return;
            }
        }
        resume(OkStatus());
    };
    Status waited = co_await Suspend<Status>(std::move(ctx), std::move(enlist));
    if (id != 0) {
        std::lock_guard lock(state->mu);
        state->waiters.erase(id);
    }
    co_return waited;
}

}  // namespace ctrl
