#include "ctrl/record/internal/event_queue.hpp"

#include <utility>

namespace ctrl::record::internal {

bool EventQueue::Push(PendingEvent event) {
    std::shared_ptr<Notification> wake;
    {
        std::lock_guard lock(mu_);
        if (closed_ || events_.size() >= capacity_)
            return false;
        events_.push_back(std::move(event));
        wake = std::move(waiter_);
        waiter_.reset();
    }
    if (wake)
        wake->Notify();
    return true;
}

Task<std::optional<PendingEvent>> EventQueue::Pop(Context ctx) {
    while (true) {
        std::shared_ptr<Notification> wait;
        {
            std::lock_guard lock(mu_);
            if (!events_.empty()) {
                PendingEvent event = std::move(events_.front());
                events_.pop_front();
                co_return event;
            }
            waiter_ = std::make_shared<Notification>();
            wait = waiter_;
        }
        const Status waited = co_await wait->Wait(ctx);
        if (!waited.Ok())
            co_return std::nullopt;
    }
}

std::optional<PendingEvent> EventQueue::TryPop() {
    std::lock_guard lock(mu_);
    if (events_.empty())
        return std::nullopt;
    PendingEvent event = std::move(events_.front());
    events_.pop_front();
    return event;
}

void EventQueue::Close() {
    std::lock_guard lock(mu_);
    closed_ = true;
}

size_t EventQueue::Size() const {
    std::lock_guard lock(mu_);
    return events_.size();
}

}  // namespace ctrl::record::internal
