#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "ctrl/event/event.hpp"

namespace ctrl::predicate {

// Decides whether an event reaches its handler (controller-runtime's predicate.Predicate), per
// event type. Predicates are pure functions of the event: no I/O, no blocking, thread-safe.
class Predicate {
  public:
    virtual ~Predicate() = default;
    virtual bool Create(const event::CreateEvent& event) const = 0;
    virtual bool Update(const event::UpdateEvent& event) const = 0;
    virtual bool Delete(const event::DeleteEvent& event) const = 0;
    virtual bool Generic(const event::GenericEvent& event) const = 0;
};

// How predicates are held and passed around.
using PredicatePtr = std::shared_ptr<const Predicate>;

// True when every predicate passes the event (also for an empty list).
bool PassesCreate(const std::vector<PredicatePtr>& predicates, const event::CreateEvent& event);
bool PassesUpdate(const std::vector<PredicatePtr>& predicates, const event::UpdateEvent& event);
bool PassesDelete(const std::vector<PredicatePtr>& predicates, const event::DeleteEvent& event);
bool PassesGeneric(const std::vector<PredicatePtr>& predicates, const event::GenericEvent& event);

}  // namespace ctrl::predicate
