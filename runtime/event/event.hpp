#pragma once

#include <memory>
#include <utility>

#include "ctrl/core/object.hpp"

namespace ctrl::event {

// The events a source delivers to predicates and handlers (controller-runtime's event package).
// Objects are the cache's shared, immutable states (docs/decisions.md, decision 20): read them, never
// change them. Each type declares a constructor (not an aggregate), so building one inside a
// co_await expression is safe on GCC 12.

// An object appeared (a create, or an object of the initial list).
struct CreateEvent {
    CreateEvent() = default;
    explicit CreateEvent(std::shared_ptr<const Object> obj, bool initial_list = false)
        : object(std::move(obj)), is_in_initial_list(initial_list) {}
    std::shared_ptr<const Object> object;
    // The object came from the source's initial list (or the replay of the cache's content).
    bool is_in_initial_list = false;
};

// An object changed: the state before and after.
struct UpdateEvent {
    UpdateEvent() = default;
    UpdateEvent(std::shared_ptr<const Object> old_obj, std::shared_ptr<const Object> new_obj)
        : object_old(std::move(old_obj)), object_new(std::move(new_obj)) {}
    std::shared_ptr<const Object> object_old;
    std::shared_ptr<const Object> object_new;
};

// An object was deleted: its final state, or the last state known when the deletion was seen
// only by a relist (delete_state_unknown, client-go's DeletedFinalStateUnknown).
struct DeleteEvent {
    DeleteEvent() = default;
    explicit DeleteEvent(std::shared_ptr<const Object> obj, bool state_unknown = false)
        : object(std::move(obj)), delete_state_unknown(state_unknown) {}
    std::shared_ptr<const Object> object;
    bool delete_state_unknown = false;
};

// Something outside the cluster's watch says an object needs a look (a channel source, a timer).
struct GenericEvent {
    GenericEvent() = default;
    explicit GenericEvent(std::shared_ptr<const Object> obj) : object(std::move(obj)) {}
    std::shared_ptr<const Object> object;
};

}  // namespace ctrl::event
