#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "ctrl/cache/event_handler.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/handler/handler.hpp"
#include "ctrl/handler/request_queue.hpp"
#include "ctrl/predicate/predicate.hpp"

namespace ctrl::source::internal {

// What the adapters of one source share: one call of the controller's handler at a time (a source
// with one informer per namespace gets calls from several informers), and the switch that stops
// every call once the source's context ends.
struct DeliveryGate {
    std::mutex mu;
    std::atomic<bool> stopped{false};
};

// Turns an informer's notifications into the controller's events (controller-runtime's
// internal.EventHandler): OnAdd -> Create (is_in_initial_list), OnUpdate -> Update, OnDelete ->
// Delete (delete_state_unknown), each delivered to the handler with the queue when every predicate
// passes it; the handler's plain adds for an object of the initial list or an update that kept its
// resourceVersion (a resync) go in at kLowPriority (handler::DefaultPriority). Calls the handler
// under the gate's lock, never after the gate stopped. ctx is the
// source's (the handler's ctx argument); queue must outlive the adapter's registration.
class EventHandlerAdapter final : public cache::EventHandler {
  public:
    EventHandlerAdapter(Context ctx, handler::RequestQueue& queue, std::shared_ptr<handler::EventHandler> handler,
                        std::vector<predicate::PredicatePtr> predicates, std::shared_ptr<DeliveryGate> gate);

    void OnAdd(const std::shared_ptr<const Object>& object, bool is_initial_list) override;
    void OnUpdate(const std::shared_ptr<const Object>& old_object,
                  const std::shared_ptr<const Object>& new_object) override;
    void OnDelete(const std::shared_ptr<const Object>& last_known, bool final_state_unknown) override;

  private:
    const Context ctx_;
    handler::RequestQueue& queue_;
    const std::shared_ptr<handler::EventHandler> handler_;
    const std::vector<predicate::PredicatePtr> predicates_;
    const std::shared_ptr<DeliveryGate> gate_;
};

}  // namespace ctrl::source::internal
