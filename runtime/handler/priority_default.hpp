#pragma once

#include <chrono>
#include <optional>

#include "ctrl/core/task.hpp"
#include "ctrl/event/event.hpp"
#include "ctrl/handler/request_queue.hpp"
#include "ctrl/workqueue/priority.hpp"

namespace ctrl::handler {

// The priority a handler's plain adds get for an event: kLowPriority for an object of the
// source's initial list and for an update that did not change the resourceVersion (a resync);
// nullopt (normal) for everything else. What controller-runtime's WithLowPriorityWhenUnchanged
// decides; ctrl's sources apply it to every handler.
std::optional<int> DefaultPriority(const event::CreateEvent& event);
std::optional<int> DefaultPriority(const event::UpdateEvent& event);

// A RequestQueue that adds at a default priority what its handler adds without one (Add,
// AddAfter, AddRateLimited, AddWithOptions without a priority), and forwards everything else to
// the controller's queue (controller-runtime's workqueueWithDefaultPriority). A source hands it
// to the handler for one event; it must not outlive the queue.
class PriorityDefaultQueue final : public RequestQueue {
  public:
    PriorityDefaultQueue(RequestQueue& queue, int priority) : queue_(queue), priority_(priority) {}

    void Add(const reconcile::Request& item) override { queue_.AddWithOptions({.priority = priority_}, item); }
    void AddAfter(const reconcile::Request& item, std::chrono::nanoseconds delay) override {
        queue_.AddWithOptions({.after = delay, .priority = priority_}, item);
    }
    void AddRateLimited(const reconcile::Request& item) override {
        queue_.AddWithOptions({.rate_limited = true, .priority = priority_}, item);
    }
    void AddWithOptions(const workqueue::AddOptions& options, const reconcile::Request& item) override {
        workqueue::AddOptions with_default = options;
        if (!with_default.priority)
            with_default.priority = priority_;
        queue_.AddWithOptions(with_default, item);
    }
    std::optional<reconcile::Request> Get() override { return queue_.Get(); }
    Task<std::optional<reconcile::Request>> AsyncGet() override { return queue_.AsyncGet(); }
    Task<std::optional<workqueue::PrioritizedItem<reconcile::Request>>> AsyncGetWithPriority() override {
        return queue_.AsyncGetWithPriority();
    }
    void Done(const reconcile::Request& item) override { queue_.Done(item); }
    void Forget(const reconcile::Request& item) override { queue_.Forget(item); }
    int NumRequeues(const reconcile::Request& item) const override { return queue_.NumRequeues(item); }
    std::size_t Len() const override { return queue_.Len(); }
    void ShutDown() override { queue_.ShutDown(); }
    void ShutDownWithDrain() override { queue_.ShutDownWithDrain(); }
    Task<void> AsyncShutDownWithDrain() override { return queue_.AsyncShutDownWithDrain(); }
    bool ShuttingDown() const override { return queue_.ShuttingDown(); }

  private:
    RequestQueue& queue_;
    const int priority_;
};

}  // namespace ctrl::handler
