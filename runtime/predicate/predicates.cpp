#include "ctrl/predicate/predicates.hpp"

#include <algorithm>
#include <memory>
#include <string_view>
#include <utility>

#include "ctrl/log/log.hpp"

namespace ctrl::predicate {
namespace {

const log::Logger& PredicateLog() {
    static const log::Logger logger = log::Logger().WithName("predicate");
    return logger;
}

// What an update filter compares: a part of the old and the new object.
using UpdateComparison = bool (*)(const Object& old_object, const Object& new_object);

// Passes create, delete and generic events; an update when both objects are present and
// changed() says they differ. name is the filter's, for the log line of an incomplete update.
class UpdateFilter final : public Predicate {
  public:
    UpdateFilter(std::string_view name, UpdateComparison changed) : name_(name), changed_(changed) {}

    bool Create(const event::CreateEvent& /*event*/) const override { return true; }
    bool Delete(const event::DeleteEvent& /*event*/) const override { return true; }
    bool Generic(const event::GenericEvent& /*event*/) const override { return true; }
    bool Update(const event::UpdateEvent& event) const override {
        if (event.object_old == nullptr) {
            PredicateLog().Error(InternalError("update event has no old object"),
                                 "Update event has no old object to update", "predicate", name_);
            return false;
        }
        if (event.object_new == nullptr) {
            PredicateLog().Error(InternalError("update event has no new object"),
                                 "Update event has no new object to update", "predicate", name_);
            return false;
        }
        return changed_(*event.object_old, *event.object_new);
    }

  private:
    std::string_view name_;
    UpdateComparison changed_;
};

// Runs filter on the object of each event (the new object of an update).
class ObjectFilter final : public Predicate {
  public:
    explicit ObjectFilter(std::function<bool(const Object&)> filter) : filter_(std::move(filter)) {}

    bool Create(const event::CreateEvent& event) const override { return Passes(event.object); }
    bool Update(const event::UpdateEvent& event) const override { return Passes(event.object_new); }
    bool Delete(const event::DeleteEvent& event) const override { return Passes(event.object); }
    bool Generic(const event::GenericEvent& event) const override { return Passes(event.object); }

  private:
    bool Passes(const std::shared_ptr<const Object>& object) const {
        return object != nullptr && filter_ != nullptr && filter_(*object);
    }

    std::function<bool(const Object&)> filter_;
};

// Calls a Predicate method on a possibly null predicate: null passes.
template <typename Event>
using Method = bool (Predicate::*)(const Event&) const;

template <typename Event>
bool Passes(const PredicatePtr& predicate, Method<Event> method, const Event& event) {
    return predicate == nullptr || ((*predicate).*method)(event);
}

// And: the list semantics of PassesCreate and its siblings (predicate.hpp).
class AllOf final : public Predicate {
  public:
    explicit AllOf(std::vector<PredicatePtr> predicates) : predicates_(std::move(predicates)) {}

    bool Create(const event::CreateEvent& event) const override { return PassesCreate(predicates_, event); }
    bool Update(const event::UpdateEvent& event) const override { return PassesUpdate(predicates_, event); }
    bool Delete(const event::DeleteEvent& event) const override { return PassesDelete(predicates_, event); }
    bool Generic(const event::GenericEvent& event) const override { return PassesGeneric(predicates_, event); }

  private:
    std::vector<PredicatePtr> predicates_;
};

class AnyOf final : public Predicate {
  public:
    explicit AnyOf(std::vector<PredicatePtr> predicates) : predicates_(std::move(predicates)) {}

    bool Create(const event::CreateEvent& event) const override { return Any(&Predicate::Create, event); }
    bool Update(const event::UpdateEvent& event) const override { return Any(&Predicate::Update, event); }
    bool Delete(const event::DeleteEvent& event) const override { return Any(&Predicate::Delete, event); }
    bool Generic(const event::GenericEvent& event) const override { return Any(&Predicate::Generic, event); }

  private:
    template <typename Event>
    bool Any(Method<Event> method, const Event& event) const {
        return std::any_of(predicates_.begin(), predicates_.end(),
                           [&](const PredicatePtr& p) { return Passes(p, method, event); });
    }

    std::vector<PredicatePtr> predicates_;
};

class NoneOf final : public Predicate {
  public:
    explicit NoneOf(PredicatePtr predicate) : predicate_(std::move(predicate)) {}

    bool Create(const event::CreateEvent& event) const override {
        return !Passes(predicate_, &Predicate::Create, event);
    }
    bool Update(const event::UpdateEvent& event) const override {
        return !Passes(predicate_, &Predicate::Update, event);
    }
    bool Delete(const event::DeleteEvent& event) const override {
        return !Passes(predicate_, &Predicate::Delete, event);
    }
    bool Generic(const event::GenericEvent& event) const override {
        return !Passes(predicate_, &Predicate::Generic, event);
    }

  private:
    PredicatePtr predicate_;
};

}  // namespace

PredicatePtr NewPredicateFuncs(std::function<bool(const Object&)> filter) {
    return std::make_shared<const ObjectFilter>(std::move(filter));
}

PredicatePtr GenerationChanged() {
    static const PredicatePtr predicate = std::make_shared<const UpdateFilter>(
        "GenerationChanged", [](const Object& old_object, const Object& new_object) {
            return old_object.Generation() != new_object.Generation();
        });
    return predicate;
}

PredicatePtr ResourceVersionChanged() {
    static const PredicatePtr predicate = std::make_shared<const UpdateFilter>(
        "ResourceVersionChanged", [](const Object& old_object, const Object& new_object) {
            return old_object.ResourceVersion() != new_object.ResourceVersion();
        });
    return predicate;
}

PredicatePtr LabelChanged() {
    static const PredicatePtr predicate = std::make_shared<const UpdateFilter>(
        "LabelChanged",
        [](const Object& old_object, const Object& new_object) { return old_object.Labels() != new_object.Labels(); });
    return predicate;
}

PredicatePtr AnnotationChanged() {
    static const PredicatePtr predicate = std::make_shared<const UpdateFilter>(
        "AnnotationChanged", [](const Object& old_object, const Object& new_object) {
            return old_object.Annotations() != new_object.Annotations();
        });
    return predicate;
}

StatusOr<PredicatePtr> LabelSelectorPredicate(const LabelSelector& selector) {
    return NewPredicateFuncs([selector](const Object& object) { return selector.Matches(object.Labels()); });
}

StatusOr<PredicatePtr> LabelSelectorPredicate(const LabelSelectorSpec& spec) {
    CTRL_ASSIGN_OR_RETURN(LabelSelector selector, ToSelector(spec));
    return LabelSelectorPredicate(selector);
}

PredicatePtr And(std::vector<PredicatePtr> predicates) {
    return std::make_shared<const AllOf>(std::move(predicates));
}

PredicatePtr Or(std::vector<PredicatePtr> predicates) {
    return std::make_shared<const AnyOf>(std::move(predicates));
}

PredicatePtr Not(PredicatePtr predicate) {
    return std::make_shared<const NoneOf>(std::move(predicate));
}

}  // namespace ctrl::predicate
