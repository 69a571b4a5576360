#include "ctrl/predicate/predicate.hpp"

#include <algorithm>

namespace ctrl::predicate {
namespace {

template <typename Event, typename Method>
bool PassesAll(const std::vector<PredicatePtr>& predicates, const Event& event, Method method) {
    return std::all_of(predicates.begin(), predicates.end(),
                       [&](const PredicatePtr& p) { return p == nullptr || ((*p).*method)(event); });
}

}  // namespace

bool PassesCreate(const std::vector<PredicatePtr>& predicates, const event::CreateEvent& event) {
    return PassesAll(predicates, event, &Predicate::Create);
}
bool PassesUpdate(const std::vector<PredicatePtr>& predicates, const event::UpdateEvent& event) {
    return PassesAll(predicates, event, &Predicate::Update);
}
bool PassesDelete(const std::vector<PredicatePtr>& predicates, const event::DeleteEvent& event) {
    return PassesAll(predicates, event, &Predicate::Delete);
}
bool PassesGeneric(const std::vector<PredicatePtr>& predicates, const event::GenericEvent& event) {
    return PassesAll(predicates, event, &Predicate::Generic);
}

}  // namespace ctrl::predicate
