// The built-in predicates: controller-runtime's semantics per event type.

#include "ctrl/predicate/predicates.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include "ctrl/core/label_selector.hpp"
#include "test/unit/handler/recording_queue.hpp"

namespace ctrl::predicate {
namespace {

using controller::testing::MakeObject;

// A Deployment-like object at a generation and resource version.
std::shared_ptr<const Object> Versioned(int64_t generation, std::string_view resource_version,
                                        std::string_view replicas_ready = "0") {
    Object object;
    object.SetNamespace("default");
    object.SetName("web");
    object.SetGeneration(generation);
    object.SetResourceVersion(resource_version);
    EXPECT_TRUE(object.SetNestedString({"status", "readyReplicas"}, replicas_ready).Ok());
    return std::make_shared<const Object>(std::move(object));
}

std::shared_ptr<const Object> WithMaps(const std::map<std::string, std::string>& labels,
                                       const std::map<std::string, std::string>& annotations) {
    Object object;
    object.SetName("web");
    object.SetLabels(labels);
    object.SetAnnotations(annotations);
    return std::make_shared<const Object>(std::move(object));
}

// Whether predicate passes each event type for obj (an update from obj to obj).
struct PerType {
    bool create, update, del, generic;
    bool operator==(const PerType&) const = default;
};
PerType Evaluate(const Predicate& predicate, const std::shared_ptr<const Object>& obj) {
    return {predicate.Create(event::CreateEvent(obj)), predicate.Update(event::UpdateEvent(obj, obj)),
            predicate.Delete(event::DeleteEvent(obj)), predicate.Generic(event::GenericEvent(obj))};
}
constexpr PerType kAll{true, true, true, true};
constexpr PerType kNone{false, false, false, false};

TEST(FuncsTest, UnsetFunctionsPassAndSetOnesDecide) {
    const auto obj = MakeObject("default", "a");
    EXPECT_EQ(Evaluate(Funcs(), obj), kAll);
    Funcs funcs;
    funcs.update = [](const event::UpdateEvent&) { return false; };
    funcs.generic = [](const event::GenericEvent& e) { return e.object->Name() == "b"; };
    EXPECT_EQ(Evaluate(funcs, obj), (PerType{true, false, true, false}));
    EXPECT_TRUE(funcs.Generic(event::GenericEvent(MakeObject("default", "b"))));
}

TEST(NewPredicateFuncsTest, FiltersEveryEventsObjectAndTheNewObjectOfAnUpdate) {
    const PredicatePtr named_a = NewPredicateFuncs([](const Object& o) { return o.Name() == "a"; });
    EXPECT_EQ(Evaluate(*named_a, MakeObject("default", "a")), kAll);
    EXPECT_EQ(Evaluate(*named_a, MakeObject("default", "b")), kNone);
    EXPECT_TRUE(named_a->Update(event::UpdateEvent(MakeObject("default", "b"), MakeObject("default", "a"))));
    EXPECT_FALSE(named_a->Update(event::UpdateEvent(MakeObject("default", "a"), MakeObject("default", "b"))));
    // A missing object does not pass.
    EXPECT_FALSE(named_a->Create(event::CreateEvent()));
    EXPECT_FALSE(named_a->Update(event::UpdateEvent(MakeObject("default", "a"), nullptr)));
}

TEST(GenerationChangedTest, AStatusOnlyUpdateDoesNotPass) {
    const PredicatePtr predicate = GenerationChanged();
    // The server bumps resourceVersion, not generation, for a change of status only.
    EXPECT_FALSE(predicate->Update(event::UpdateEvent(Versioned(3, "100", "0"), Versioned(3, "101", "2"))));
    // A change of spec bumps generation.
    EXPECT_TRUE(predicate->Update(event::UpdateEvent(Versioned(3, "101"), Versioned(4, "102"))));
    EXPECT_EQ(Evaluate(*predicate, Versioned(1, "1")), (PerType{true, false, true, true}));
}

TEST(GenerationChangedTest, AnUpdateWithoutOneOfItsObjectsDoesNotPass) {
    const PredicatePtr predicate = GenerationChanged();
    EXPECT_FALSE(predicate->Update(event::UpdateEvent(nullptr, Versioned(2, "2"))));
    EXPECT_FALSE(predicate->Update(event::UpdateEvent(Versioned(1, "1"), nullptr)));
}

TEST(ResourceVersionChangedTest, AResyncDoesNotPassAndAnyWriteDoes) {
    const PredicatePtr predicate = ResourceVersionChanged();
    EXPECT_FALSE(predicate->Update(event::UpdateEvent(Versioned(3, "100"), Versioned(3, "100"))));
    EXPECT_TRUE(predicate->Update(event::UpdateEvent(Versioned(3, "100", "0"), Versioned(3, "101", "2"))));
    EXPECT_FALSE(predicate->Update(event::UpdateEvent(nullptr, Versioned(3, "101"))));
    EXPECT_EQ(Evaluate(*predicate, Versioned(1, "1")), (PerType{true, false, true, true}));
}

TEST(LabelChangedTest, PassesAnAddedRemovedOrChangedLabel) {
    const PredicatePtr predicate = LabelChanged();
    const auto base = WithMaps({{"app", "web"}}, {{"note", "x"}});
    EXPECT_FALSE(predicate->Update(event::UpdateEvent(base, WithMaps({{"app", "web"}}, {{"note", "y"}}))));
    EXPECT_TRUE(predicate->Update(event::UpdateEvent(base, WithMaps({{"app", "api"}}, {{"note", "x"}}))));
    EXPECT_TRUE(predicate->Update(event::UpdateEvent(base, WithMaps({{"app", "web"}, {"tier", "1"}}, {}))));
    EXPECT_TRUE(predicate->Update(event::UpdateEvent(base, WithMaps({}, {{"note", "x"}}))));
    EXPECT_FALSE(predicate->Update(event::UpdateEvent(base, nullptr)));
    EXPECT_EQ(Evaluate(*predicate, base), (PerType{true, false, true, true}));
}

TEST(AnnotationChangedTest, PassesAnAddedRemovedOrChangedAnnotation) {
    const PredicatePtr predicate = AnnotationChanged();
    const auto base = WithMaps({{"app", "web"}}, {{"note", "x"}});
    EXPECT_FALSE(predicate->Update(event::UpdateEvent(base, WithMaps({{"app", "api"}}, {{"note", "x"}}))));
    EXPECT_TRUE(predicate->Update(event::UpdateEvent(base, WithMaps({{"app", "web"}}, {{"note", "y"}}))));
    EXPECT_TRUE(predicate->Update(event::UpdateEvent(base, WithMaps({{"app", "web"}}, {}))));
    EXPECT_TRUE(predicate->Update(event::UpdateEvent(base, WithMaps({}, {{"note", "x"}, {"b", ""}}))));
    EXPECT_FALSE(predicate->Update(event::UpdateEvent(nullptr, base)));
    EXPECT_EQ(Evaluate(*predicate, base), (PerType{true, false, true, true}));
}

TEST(LabelSelectorPredicateTest, FiltersEveryEventTypeByTheObjectsLabels) {
    const StatusOr<LabelSelector> selector = LabelSelector::Parse("app=web,tier notin (db)");
    ASSERT_TRUE(selector.Ok()) << selector.GetStatus();
    const StatusOr<PredicatePtr> predicate = LabelSelectorPredicate(*selector);
    ASSERT_TRUE(predicate.Ok()) << predicate.GetStatus();
    const auto web = MakeObject("default", "a", {{"app", "web"}});
    const auto web_db = MakeObject("default", "b", {{"app", "web"}, {"tier", "db"}});
    const auto other = MakeObject("default", "c", {{"app", "api"}});
    const auto unlabelled = MakeObject("default", "d");
    EXPECT_EQ(Evaluate(**predicate, web), kAll);
    EXPECT_EQ(Evaluate(**predicate, web_db), kNone);
    EXPECT_EQ(Evaluate(**predicate, other), kNone);
    EXPECT_EQ(Evaluate(**predicate, unlabelled), kNone);
    // An update is judged by its new object.
    EXPECT_TRUE((*predicate)->Update(event::UpdateEvent(other, web)));
    EXPECT_FALSE((*predicate)->Update(event::UpdateEvent(web, other)));
}

TEST(LabelSelectorPredicateTest, TheObjectFormSelectsAndRejectsAnInvalidSpec) {
    LabelSelectorSpec spec;
    spec.match_labels = {{"app", "web"}};
    spec.match_expressions.push_back({"tier", LabelSelectorOperator::kIn, {"front", "edge"}});
    const StatusOr<PredicatePtr> predicate = LabelSelectorPredicate(spec);
    ASSERT_TRUE(predicate.Ok()) << predicate.GetStatus();
    EXPECT_EQ(Evaluate(**predicate, MakeObject("default", "a", {{"app", "web"}, {"tier", "edge"}})), kAll);
    EXPECT_EQ(Evaluate(**predicate, MakeObject("default", "a", {{"app", "web"}})), kNone);

    EXPECT_EQ(Evaluate(**LabelSelectorPredicate(LabelSelectorSpec()), MakeObject("default", "a")), kAll)
        << "an empty spec selects everything";

    LabelSelectorSpec invalid;
    invalid.match_expressions.push_back({"tier", LabelSelectorOperator::kIn, {}});
    const StatusOr<PredicatePtr> refused = LabelSelectorPredicate(invalid);
    ASSERT_FALSE(refused.Ok());
    EXPECT_TRUE(IsBadRequest(refused.GetStatus())) << refused.GetStatus();
}

TEST(CompositionTest, NotAndOrComposePerEventType) {
    Funcs creates_only;
    creates_only.update = [](const event::UpdateEvent&) { return false; };
    creates_only.delete_ = [](const event::DeleteEvent&) { return false; };
    creates_only.generic = [](const event::GenericEvent&) { return false; };
    const PredicatePtr creates = std::make_shared<Funcs>(creates_only);
    const PredicatePtr named_a = NewPredicateFuncs([](const Object& o) { return o.Name() == "a"; });
    const auto a = MakeObject("default", "a");
    const auto b = MakeObject("default", "b");

    EXPECT_EQ(Evaluate(*Not(creates), a), (PerType{false, true, true, true}));
    EXPECT_EQ(Evaluate(*And(creates, named_a), a), (PerType{true, false, false, false}));
    EXPECT_EQ(Evaluate(*And(creates, named_a), b), kNone);
    EXPECT_EQ(Evaluate(*Or(creates, named_a), a), kAll);
    EXPECT_EQ(Evaluate(*Or(creates, named_a), b), (PerType{true, false, false, false}));
    EXPECT_EQ(Evaluate(*Or(Not(creates), named_a), b), (PerType{false, true, true, true}));
    // A status-only update passes neither GenerationChanged nor its conjunction with anything.
    const event::UpdateEvent status_only(Versioned(3, "100", "0"), Versioned(3, "101", "1"));
    EXPECT_FALSE(And(ResourceVersionChanged(), GenerationChanged())->Update(status_only));
    EXPECT_TRUE(Or(ResourceVersionChanged(), GenerationChanged())->Update(status_only));
    EXPECT_TRUE(Not(GenerationChanged())->Update(status_only));
}

TEST(CompositionTest, EmptyAndNullCases) {
    const auto a = MakeObject("default", "a");
    EXPECT_EQ(Evaluate(*And(std::vector<PredicatePtr>{}), a), kAll);
    EXPECT_EQ(Evaluate(*Or(std::vector<PredicatePtr>{}), a), kNone);
    EXPECT_EQ(Evaluate(*And(), a), kAll);
    // A null predicate passes every event.
    EXPECT_EQ(Evaluate(*And(PredicatePtr(), NewPredicateFuncs([](const Object&) { return false; })), a), kNone);
    EXPECT_EQ(Evaluate(*Or(PredicatePtr(), NewPredicateFuncs([](const Object&) { return false; })), a), kAll);
    EXPECT_EQ(Evaluate(*Not(nullptr), a), kNone);
    EXPECT_EQ(Evaluate(*Not(Not(std::make_shared<Funcs>())), a), kAll);
}

}  // namespace
}  // namespace ctrl::predicate
