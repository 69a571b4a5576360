#pragma once

#include <concepts>
#include <functional>
#include <utility>
#include <vector>

#include "ctrl/core/label_selector.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/event/event.hpp"
#include "ctrl/predicate/predicate.hpp"

namespace ctrl::predicate {

// The built-in predicates (controller-runtime's pkg/predicate). Each is a pure function of the
// event, safe to share between sources and threads. An event whose object is missing (null)
// does not pass a predicate that looks at that object; the update filters log it as an error,
// as controller-runtime does.

// A Predicate made of functions (controller-runtime's predicate.Funcs): an unset function passes
// its events.
struct Funcs final : Predicate {
    std::function<bool(const event::CreateEvent&)> create{};
    std::function<bool(const event::UpdateEvent&)> update{};
    std::function<bool(const event::DeleteEvent&)> delete_{};
    std::function<bool(const event::GenericEvent&)> generic{};

    bool Create(const event::CreateEvent& event) const override { return !create || create(event); }
    bool Update(const event::UpdateEvent& event) const override { return !update || update(event); }
    bool Delete(const event::DeleteEvent& event) const override { return !delete_ || delete_(event); }
    bool Generic(const event::GenericEvent& event) const override { return !generic || generic(event); }
};

// Passes the events whose object filter accepts: the object of a create, delete or generic
// event, the new object of an update. A null object does not pass.
PredicatePtr NewPredicateFuncs(std::function<bool(const Object&)> filter);

// Update filters: each passes an update only when both objects are present and the named part
// differs between them; create, delete and generic events pass.
// metadata.generation changed: a change of spec, not a status-only or metadata-only update (the
// server does not bump generation for those; kinds without generation keep 0 and never pass).
PredicatePtr GenerationChanged();
// metadata.resourceVersion changed: filters out the resync's updates, which repeat an object.
PredicatePtr ResourceVersionChanged();
// The label map changed (a key added, removed or given another value).
PredicatePtr LabelChanged();
// The annotation map changed.
PredicatePtr AnnotationChanged();

// Passes the events whose object's labels match selector (for an update the new object's), of
// every event type. Never fails today; StatusOr keeps one call shape with the spec form below.
StatusOr<PredicatePtr> LabelSelectorPredicate(const LabelSelector& selector);
// The same from a metav1.LabelSelector object form (controller-runtime's signature): BadRequest
// when the spec is invalid (an operator without the values it needs, an invalid key or value).
StatusOr<PredicatePtr> LabelSelectorPredicate(const LabelSelectorSpec& spec);

// Compositions, per event type. A null predicate in them passes every event.
// Passes when every predicate passes (true for none).
PredicatePtr And(std::vector<PredicatePtr> predicates);
// Passes when some predicate passes (false for none).
PredicatePtr Or(std::vector<PredicatePtr> predicates);
// Passes exactly the events predicate refuses.
PredicatePtr Not(PredicatePtr predicate);

// And(a, b, c) and Or(a, b, c) for predicates at hand.
template <std::convertible_to<PredicatePtr>... P>
PredicatePtr And(P... predicates) {
    return And(std::vector<PredicatePtr>{PredicatePtr(std::move(predicates))...});
}
template <std::convertible_to<PredicatePtr>... P>
PredicatePtr Or(P... predicates) {
    return Or(std::vector<PredicatePtr>{PredicatePtr(std::move(predicates))...});
}

}  // namespace ctrl::predicate
