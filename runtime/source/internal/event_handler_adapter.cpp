#include "ctrl/source/internal/event_handler_adapter.hpp"

#include <optional>
#include <utility>

#include "ctrl/handler/priority_default.hpp"

namespace ctrl::source::internal {
namespace {

// Calls deliver with the controller's queue, or with one that adds at `priority` when the event
// has a default priority (handler::DefaultPriority).
template <typename Deliver>
void DeliverAt(std::optional<int> priority, handler::RequestQueue& queue, Deliver&& deliver) {
    if (!priority) {
        deliver(queue);
        return;
    }
    handler::PriorityDefaultQueue at_priority(queue, *priority);
    deliver(at_priority);
}

}  // namespace

EventHandlerAdapter::EventHandlerAdapter(Context ctx, handler::RequestQueue& queue,
                                         std::shared_ptr<handler::EventHandler> handler,
                                         std::vector<predicate::PredicatePtr> predicates,
                                         std::shared_ptr<DeliveryGate> gate)
    : ctx_(std::move(ctx)),
      queue_(queue),
      handler_(std::move(handler)),
      predicates_(std::move(predicates)),
      gate_(std::move(gate)) {}

void EventHandlerAdapter::OnAdd(const std::shared_ptr<const Object>& object, bool is_initial_list) {
    const event::CreateEvent event(object, is_initial_list);
    if (!predicate::PassesCreate(predicates_, event))
        return;
    std::lock_guard lock(gate_->mu);
    if (gate_->stopped.load())
        return;
    DeliverAt(handler::DefaultPriority(event), queue_,
              [&](handler::RequestQueue& queue) { handler_->Create(ctx_, event, queue); });
}

void EventHandlerAdapter::OnUpdate(const std::shared_ptr<const Object>& old_object,
                                   const std::shared_ptr<const Object>& new_object) {
    const event::UpdateEvent event(old_object, new_object);
    if (!predicate::PassesUpdate(predicates_, event))
        return;
    std::lock_guard lock(gate_->mu);
    if (gate_->stopped.load())
        return;
    DeliverAt(handler::DefaultPriority(event), queue_,
              [&](handler::RequestQueue& queue) { handler_->Update(ctx_, event, queue); });
}

void EventHandlerAdapter::OnDelete(const std::shared_ptr<const Object>& last_known, bool final_state_unknown) {
    const event::DeleteEvent event(last_known, final_state_unknown);
    if (!predicate::PassesDelete(predicates_, event))
        return;
    std::lock_guard lock(gate_->mu);
    if (!gate_->stopped.load())
        handler_->Delete(ctx_, event, queue_);
}

}  // namespace ctrl::source::internal
