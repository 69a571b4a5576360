#include "ctrl/cache/internal/processor.hpp"

#include <utility>

#include <boost/asio/post.hpp>

#include "ctrl/cache/internal/listener.hpp"

namespace ctrl::cache {

bool EventHandlerRegistration::HasSynced() const {
    return listener_ && listener_->HasSynced();
}

Task<Status> EventHandlerRegistration::WaitForSync(Context ctx) const {
    return internal::Listener::WaitForSync(std::move(ctx), listener_);
}

}  // namespace ctrl::cache

namespace ctrl::cache::internal {

Processor::Processor(const Store& store, std::string what, const std::string& kind, metrics::Registry& registry)
    : store_(store),
      what_(std::move(what)),
      faults_(std::make_shared<const InformerFaults>(kind, registry)),
      listeners_(std::make_shared<const Listeners>()) {}

Processor::~Processor() {
    // A registration the caller still holds keeps its listener; stopping each lets go of its handler.
    for (const auto& listener : *listeners_)
        listener->Stop();
}

Processor::Batch::Batch(Processor& processor)
    : processor_(processor), lock_(processor.mu_), listeners_(processor.listeners_) {}

Processor::Batch::~Batch() {
    lock_.unlock();
    Deliver(*listeners_);
}

void Processor::Batch::Replaced(const StoreReplaceResult& result, bool initial) {
    if (!listeners_->empty()) {
        for (const StoreChange& change : result.changes)
            Queue(change, initial);
        for (const CachedObject& gone : result.deleted)
            Deleted(gone, /*final_state_unknown=*/true);
    }
    if (!initial)
        return;
    processor_.listed_ = true;
    for (const auto& listener : *listeners_)
        listener->QueueSynced();
}

void Processor::Batch::Changed(const StoreChange& change) {
    if (!listeners_->empty())
        Queue(change, /*is_initial_list=*/false);
}

void Processor::Batch::Queue(const StoreChange& change, bool is_initial_list) {
    if (change.previous) {
        for (const auto& listener : *listeners_)
            listener->QueueUpdate(change.previous, change.current);
    } else {
        for (const auto& listener : *listeners_)
            listener->QueueAdd(change.current, is_initial_list);
    }
}

void Processor::Batch::Deleted(const QueuedObject& last_known, bool final_state_unknown) {
    for (const auto& listener : *listeners_)
        listener->QueueDelete(last_known, final_state_unknown);
}

EventHandlerRegistration Processor::AddEventHandler(std::shared_ptr<EventHandler> handler) {
    auto listener = std::make_shared<Listener>(std::move(handler), faults_);
    std::optional<boost::asio::any_io_executor> replay_on;
    {
        std::lock_guard lock(mu_);
        if (listed_) {
            for (const CachedObject& object : store_.List())
                listener->QueueAdd(object, /*is_initial_list=*/true);
            listener->QueueSynced();
            replay_on = executor_;
        }
        auto next = std::make_shared<Listeners>(*listeners_);
        next->push_back(listener);
        listeners_ = std::move(next);
    }
    // On the informer's executor, never on the caller's thread (which may be a handler's).
    if (replay_on)
        boost::asio::post(*replay_on, [listener] { listener->Deliver(); });
    return EventHandlerRegistration(std::move(listener));
}

Status Processor::RemoveEventHandler(const EventHandlerRegistration& registration) {
    const std::shared_ptr<Listener>& listener = registration.listener_;
    {
        std::lock_guard lock(mu_);
        auto next = std::make_shared<Listeners>(*listeners_);
        const auto removed = std::erase(*next, listener);
        if (!listener || removed == 0)
            return NotFoundError("the event handler is not registered with the informer of " + what_);
        listeners_ = std::move(next);
    }
    listener->Stop();
    return OkStatus();
}

void Processor::Resync() {
    std::shared_ptr<const Listeners> listeners;
    {
        std::lock_guard lock(mu_);
        if (!listed_ || listeners_->empty())
            return;
        for (const CachedObject& object : store_.List()) {
            for (const auto& listener : *listeners_)
                listener->QueueUpdate(object, object);
        }
        listeners = listeners_;
    }
    Deliver(*listeners);
}

void Processor::SetExecutor(boost::asio::any_io_executor executor) {
    std::lock_guard lock(mu_);
    executor_ = std::move(executor);
}

void Processor::Deliver(const Listeners& listeners) {
    for (const auto& listener : listeners)
        listener->Deliver();
}

}  // namespace ctrl::cache::internal
