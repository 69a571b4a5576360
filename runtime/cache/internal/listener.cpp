#include "ctrl/cache/internal/listener.hpp"

#include <exception>
#include <utility>

namespace ctrl::cache::internal {

Listener::Listener(std::shared_ptr<EventHandler> handler, std::shared_ptr<const InformerFaults> faults)
    : handler_(std::move(handler)), faults_(std::move(faults)) {}

void Listener::QueueAdd(QueuedObject object, bool is_initial_list) {
    Queue(Pending{Kind::kAdd, std::move(object), {}, is_initial_list});
}

void Listener::QueueUpdate(QueuedObject old_object, QueuedObject new_object) {
    Queue(Pending{Kind::kUpdate, std::move(new_object), std::move(old_object), false});
}

void Listener::QueueDelete(QueuedObject last_known, bool final_state_unknown) {
    Queue(Pending{Kind::kDelete, std::move(last_known), {}, final_state_unknown});
}

void Listener::QueueSynced() {
    Queue(Pending{Kind::kSynced, {}, {}, false});
}

void Listener::Queue(Pending pending) {
    std::lock_guard lock(mu_);
    if (!stopped_)
        queue_.push_back(std::move(pending));
}

void Listener::Deliver() {
    std::unique_lock lock(mu_);
    if (delivering_)
        return;
    delivering_ = true;
    while (!queue_.empty() && !stopped_) {
        Pending next = std::move(queue_.front());
        queue_.pop_front();
        if (next.kind == Kind::kSynced) {
            synced_ = true;
            decided_.Notify();
            continue;
        }
        const std::shared_ptr<EventHandler> handler = handler_;
        lock.unlock();
        Call(*handler, next);
        lock.lock();
    }
    delivering_ = false;
}

void Listener::Call(EventHandler& handler, const Pending& pending) {
    std::string_view event;
    // Decoded here, one notification at a time, and let go once the handler returns.
    const std::shared_ptr<const Object> object = pending.object.Get();
    try {
        switch (pending.kind) {
            case Kind::kAdd:
                event = "add";
                handler.OnAdd(object, pending.flag);
                break;
            case Kind::kUpdate:
                event = "update";
                handler.OnUpdate(pending.old_object.Get(), object);
                break;
            case Kind::kDelete:
                event = "delete";
                handler.OnDelete(object, pending.flag);
                break;
            case Kind::kSynced:
                break;
        }
    } catch (const std::exception& e) {
        faults_->HandlerThrew(event, *object, e.what());
    } catch (...) {
        faults_->HandlerThrew(event, *object, "an exception not derived from std::exception");
    }
}

void Listener::Stop() {
    std::shared_ptr<EventHandler> handler;
    std::deque<Pending> dropped;
    {
        std::lock_guard lock(mu_);
        stopped_ = true;
        dropped.swap(queue_);
        handler.swap(handler_);
    }
    decided_.Notify();
    // Destroyed here, outside the lock: their destructors may call back into the informer.
}

bool Listener::HasSynced() const {
    std::lock_guard lock(mu_);
    return synced_;
}

Task<Status> Listener::WaitForSync(Context ctx, std::shared_ptr<const Listener> listener) {
    if (!listener)
        co_return CancelledError("a null event handler registration never syncs");
    if (Status waited = co_await listener->decided_.Wait(std::move(ctx)); !waited.Ok())
        co_return waited;
    if (listener->HasSynced())
        co_return OkStatus();
    co_return CancelledError("the event handler was removed before it received the informer's first list");
}

bool Listener::HasPending() const {
    std::lock_guard lock(mu_);
    return !queue_.empty();
}

}  // namespace ctrl::cache::internal
