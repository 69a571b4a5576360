#include "ctrl/scheme/typed_object.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "ctrl/scheme/typed_list.hpp"
#include "test/unit/scheme/test_kinds.hpp"

namespace ctrl::scheme {
namespace {

using testing::Thing;
using testing::Widget;
using testing::WidgetView;

// A would-be kind with state of its own: not a TypedObject (a move to Object would lose it).
class FatWidget final : public TypedObjectBase<FatWidget> {
  public:
    [[maybe_unused]] static constexpr StaticGroupVersionKind kGroupVersionKind{"example.com", "v1", "FatWidget"};
    [[maybe_unused]] static constexpr std::string_view kListKind = "FatWidgetList";
    using TypedObjectBase::TypedObjectBase;
    int extra = 0;
};

static_assert(TypedObject<Widget>);
static_assert(TypedObject<Thing>);
static_assert(!TypedObject<Object>);
static_assert(!TypedObject<FatWidget>);
static_assert(TypedObjectList<TypedList<Widget>>);
static_assert(!TypedObjectList<ObjectList>);
static_assert(sizeof(Widget) == sizeof(Object));

constexpr std::string_view kWidgetJson =
    R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},)"
    R"("spec":{"replicas":2,"x-unknown":{"a":[1,"b",null]}},"status":{"observed":true}})";

TEST(TypedObjectTest, AFreshObjectHasItsKind) {
    Widget widget;
    EXPECT_EQ(widget.ToJson(), R"({"apiVersion":"example.com/v1","kind":"Widget"})");
    EXPECT_EQ(Thing().ApiVersion(), "v1");
    EXPECT_EQ(GroupVersionKindOf<Widget>(), (GroupVersionKind{"example.com", "v1", "Widget"}));
    EXPECT_EQ(ListGroupVersionKindOf<Widget>(), (GroupVersionKind{"example.com", "v1", "WidgetList"}));
    EXPECT_EQ(Widget::kGroupVersionKind.ApiVersion(), "example.com/v1");
}

TEST(TypedObjectTest, ParseKeepsEveryField) {
    auto widget = Widget::Parse(kWidgetJson);
    ASSERT_TRUE(widget.Ok()) << widget.GetStatus();
    EXPECT_EQ(widget->Replicas(), 2);
    EXPECT_EQ(widget->Name(), "w");
    widget->SetReplicas(5);
    auto expected =
        Object::Parse(R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},)"
                      R"("spec":{"replicas":5,"x-unknown":{"a":[1,"b",null]}},"status":{"observed":true}})");
    ASSERT_TRUE(expected.Ok());
    EXPECT_EQ(widget->AsObject(), *expected);
}

TEST(TypedObjectTest, FromObjectSetsAMissingKindAndRefusesAnother) {
    auto bare = Object::Parse(R"({"metadata":{"name":"w"}})");
    ASSERT_TRUE(bare.Ok());
    auto widget = Widget::FromObject(std::move(bare).Value());
    ASSERT_TRUE(widget.Ok()) << widget.GetStatus();
    EXPECT_EQ(widget->ApiVersion(), "example.com/v1");
    EXPECT_EQ(widget->Kind(), "Widget");
    EXPECT_EQ(widget->Name(), "w");

    auto other = Object::Parse(R"({"apiVersion":"example.com/v2","kind":"Widget"})");
    ASSERT_TRUE(other.Ok());
    Object kept = std::move(other).Value();
    auto refused = Widget::FromObject(std::move(kept));
    ASSERT_FALSE(refused.Ok());
    EXPECT_TRUE(IsBadRequest(refused.GetStatus()));
    EXPECT_EQ(
        refused.GetStatus().Message(),
        R"(an object of apiVersion "example.com/v2" and kind "Widget" cannot be read as example.com/v1, Kind=Widget)");

    auto wrong_kind = Widget::Parse(R"({"apiVersion":"example.com/v1","kind":"Gadget"})");
    EXPECT_TRUE(IsBadRequest(wrong_kind.GetStatus()));
    auto malformed = Widget::Parse("{");
    EXPECT_TRUE(IsBadRequest(malformed.GetStatus()));
}

TEST(TypedObjectTest, ConvertsToAndFromObjectWithoutCopying) {
    auto widget = Widget::Parse(kWidgetJson);
    ASSERT_TRUE(widget.Ok());
    const void* document = &widget->Document();
    Object object = std::move(widget).Value();  // a typed kind is an Object: moving keeps the document
    EXPECT_EQ(&object.Document(), document);
    EXPECT_TRUE(IsKind<Widget>(object));
    EXPECT_FALSE(IsKind<Thing>(object));
    auto again = Widget::FromObject(std::move(object));
    ASSERT_TRUE(again.Ok());
    EXPECT_EQ(&again->Document(), document);
    EXPECT_EQ(again->Replicas(), 2);
}

TEST(TypedObjectTest, DeepCopyIsIndependentAndTyped) {
    auto widget = Widget::Parse(kWidgetJson);
    ASSERT_TRUE(widget.Ok());
    Widget copy = widget->DeepCopy();
    copy.SetReplicas(9);
    EXPECT_EQ(widget->Replicas(), 2);
    EXPECT_EQ(copy.Replicas(), 9);
    EXPECT_EQ(copy.Name(), "w");
}

TEST(TypedObjectTest, ViewReadsAnObjectItDoesNotOwn) {
    auto object = Object::Parse(kWidgetJson);
    ASSERT_TRUE(object.Ok());
    const Object& shared = *object;
    WidgetView view(shared);
    EXPECT_EQ(view.Replicas(), 2);
    EXPECT_EQ(view.Name(), "w");
    EXPECT_EQ(view.Namespace(), "ns");
    EXPECT_EQ(view.Kind(), "Widget");
    EXPECT_EQ(&view.AsObject(), &shared);
}

constexpr std::string_view kWidgetListJson =
    R"({"apiVersion":"example.com/v1","kind":"WidgetList","metadata":{"resourceVersion":"42"},"items":[)"
    R"({"metadata":{"name":"a"},"spec":{"replicas":1}},{"metadata":{"name":"b"},"spec":{"replicas":2}}]})";

TEST(TypedListTest, ParseFillsTheItemsKind) {
    auto list = TypedList<Widget>::Parse(kWidgetListJson);
    ASSERT_TRUE(list.Ok()) << list.GetStatus();
    EXPECT_EQ(list->ResourceVersion(), "42");
    ASSERT_EQ(list->Items().size(), 2u);
    EXPECT_EQ(list->Items()[1].Kind(), "Widget");
    EXPECT_EQ(list->Items()[1].ApiVersion(), "example.com/v1");
    EXPECT_EQ(TypedList<Widget>().Kind(), "WidgetList");
    EXPECT_EQ(TypedList<Widget>::kGroupVersionKind.kind, "WidgetList");
}

TEST(TypedListTest, ViewsReadItemsInPlace) {
    auto list = TypedList<Widget>::Parse(kWidgetListJson);
    ASSERT_TRUE(list.Ok());
    const TypedList<Widget>& shared = *list;
    std::vector<int64_t> replicas;
    for (WidgetView widget : shared.Views())
        replicas.push_back(widget.Replicas());
    EXPECT_EQ(replicas, (std::vector<int64_t>{1, 2}));
}

TEST(TypedListTest, TakeItemsMovesThemOutTyped) {
    auto list = TypedList<Widget>::Parse(kWidgetListJson);
    ASSERT_TRUE(list.Ok());
    Widget extra;
    extra.SetName("c");
    list->AddItem(std::move(extra));
    auto items = list->TakeItems();
    ASSERT_TRUE(items.Ok()) << items.GetStatus();
    ASSERT_EQ(items->size(), 3u);
    EXPECT_EQ((*items)[0].Replicas(), 1);
    EXPECT_EQ((*items)[2].Name(), "c");
    EXPECT_TRUE(list->Items().empty());
}

TEST(TypedListTest, RefusesAListOrItemOfAnotherKind) {
    auto wrong_list = TypedList<Widget>::Parse(R"({"apiVersion":"v1","kind":"ThingList","items":[]})");
    EXPECT_TRUE(IsBadRequest(wrong_list.GetStatus())) << wrong_list.GetStatus();

    auto wrong_item =
        TypedList<Widget>::Parse(R"({"kind":"WidgetList","items":[{},{"apiVersion":"v1","kind":"Thing"}]})");
    ASSERT_FALSE(wrong_item.Ok());
    EXPECT_NE(wrong_item.GetStatus().Message().find("items[1]"), std::string::npos) << wrong_item.GetStatus();

    TypedList<Widget> list;
    list.Items().push_back(Thing());
    auto taken = list.TakeItems();
    EXPECT_TRUE(IsBadRequest(taken.GetStatus()));
    EXPECT_EQ(list.Items().size(), 1u);  // unchanged
}

TEST(TypedListTest, DeepCopyKeepsTheListKind) {
    auto list = TypedList<Widget>::Parse(kWidgetListJson);
    ASSERT_TRUE(list.Ok());
    TypedList<Widget> copy = list->DeepCopy();
    EXPECT_EQ(copy.Kind(), "WidgetList");
    ASSERT_EQ(copy.Items().size(), 2u);
    EXPECT_NE(&copy.Items()[0].Document(), &list->Items()[0].Document());
    EXPECT_EQ(copy.Items()[0], list->Items()[0]);
}

}  // namespace
}  // namespace ctrl::scheme
