#include "ctrl/scheme/scheme.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <typeindex>
#include <vector>

#include "test/unit/scheme/test_kinds.hpp"

namespace ctrl::scheme {
namespace {

using testing::ImpostorWidget;
using testing::Thing;
using testing::Versionless;
using testing::Widget;
using testing::WidgetV2;

const GroupVersionKind kWidget{"example.com", "v1", "Widget"};
const GroupVersionKind kWidgetList{"example.com", "v1", "WidgetList"};
const GroupVersionKind kWidgetV2{"example.com", "v2", "Widget"};

Scheme WidgetScheme() {
    Scheme scheme("test");
    EXPECT_TRUE(scheme.AddKnownType<Widget>().Ok());
    return scheme;
}

TEST(SchemeTest, RegistersTheKindAndItsListBothWays) {
    Scheme scheme = WidgetScheme();

    auto kinds = scheme.ObjectKinds<Widget>();
    ASSERT_TRUE(kinds.Ok()) << kinds.GetStatus();
    EXPECT_EQ(*kinds, std::vector<GroupVersionKind>{kWidget});
    auto list_kinds = scheme.ObjectKinds<TypedList<Widget>>();
    ASSERT_TRUE(list_kinds.Ok()) << list_kinds.GetStatus();
    EXPECT_EQ(*list_kinds, std::vector<GroupVersionKind>{kWidgetList});
    EXPECT_EQ(*scheme.ObjectKind<Widget>(), kWidget);
    EXPECT_EQ(*scheme.ObjectKindsFor(std::type_index(typeid(Widget))), std::vector<GroupVersionKind>{kWidget});

    EXPECT_EQ(*scheme.TypeFor(kWidget), std::type_index(typeid(Widget)));
    EXPECT_EQ(*scheme.TypeFor(kWidgetList), std::type_index(typeid(TypedList<Widget>)));
    EXPECT_TRUE(scheme.Recognizes(kWidget));
    EXPECT_TRUE(scheme.Recognizes(kWidgetList));
    EXPECT_TRUE(scheme.IsRegistered<Widget>());
    EXPECT_FALSE(scheme.IsRegistered<Thing>());
}

TEST(SchemeTest, ListKindsPairWithTheirItems) {
    Scheme scheme = WidgetScheme();
    EXPECT_TRUE(scheme.IsListKind(kWidgetList));
    EXPECT_FALSE(scheme.IsListKind(kWidget));
    EXPECT_FALSE(scheme.IsListKind({"example.com", "v1", "GadgetList"}));
    EXPECT_EQ(*scheme.ListKindFor(kWidget), kWidgetList);
    EXPECT_EQ(*scheme.ItemKindFor(kWidgetList), kWidget);
    EXPECT_TRUE(IsNotRegistered(scheme.ListKindFor(kWidgetList).GetStatus()));
    EXPECT_TRUE(IsNotRegistered(scheme.ItemKindFor(kWidget).GetStatus()));
    EXPECT_TRUE(IsNotRegistered(scheme.ListKindFor(kWidgetV2).GetStatus()));
}

TEST(SchemeTest, NewMakesAFreshObjectOfTheKind) {
    Scheme scheme = WidgetScheme();
    auto object = scheme.New(kWidget);
    ASSERT_TRUE(object.Ok()) << object.GetStatus();
    EXPECT_EQ(object->ToJson(), R"({"apiVersion":"example.com/v1","kind":"Widget"})");

    // The fresh object is a Widget to the typed view.
    auto widget = Widget::FromObject(std::move(object).Value());
    ASSERT_TRUE(widget.Ok()) << widget.GetStatus();
    widget->SetReplicas(3);
    EXPECT_EQ(widget->Replicas(), 3);
}

TEST(SchemeTest, NewOfAListKindMakesAnEmptyList) {
    Scheme scheme = WidgetScheme();
    auto object = scheme.New(kWidgetList);
    ASSERT_TRUE(object.Ok()) << object.GetStatus();
    EXPECT_EQ(object->ToJson(), R"({"apiVersion":"example.com/v1","kind":"WidgetList","items":[]})");

    auto list = scheme.NewList(kWidgetList);
    ASSERT_TRUE(list.Ok()) << list.GetStatus();
    EXPECT_EQ(list->Kind(), "WidgetList");
    EXPECT_EQ(list->ApiVersion(), "example.com/v1");
    EXPECT_TRUE(list->Items().empty());

    auto not_a_list = scheme.NewList(kWidget);
    EXPECT_TRUE(IsBadRequest(not_a_list.GetStatus())) << not_a_list.GetStatus();
}

TEST(SchemeTest, UnknownKindsAreNotRegisteredNeverNoMatch) {
    Scheme scheme = WidgetScheme();
    auto missing = scheme.New({"example.com", "v1", "Gadget"});
    ASSERT_FALSE(missing.Ok());
    EXPECT_TRUE(IsNotRegistered(missing.GetStatus()));
    EXPECT_TRUE(IsNotFound(missing.GetStatus()));
    EXPECT_FALSE(IsNoMatch(missing.GetStatus()));
    EXPECT_EQ(missing.GetStatus().Message(),
              R"(no kind "Gadget" is registered for version "example.com/v1" in scheme "test")");

    auto core = scheme.New({"", "v1", "Pod"});
    EXPECT_EQ(core.GetStatus().Message(), R"(no kind "Pod" is registered for version "v1" in scheme "test")");

    auto other_version = scheme.New(kWidgetV2);
    EXPECT_TRUE(IsNotRegistered(other_version.GetStatus()));
    EXPECT_FALSE(scheme.Recognizes(kWidgetV2));
    EXPECT_TRUE(IsNotRegistered(scheme.TypeFor(kWidgetV2).GetStatus()));

    auto no_kind = scheme.New({"example.com", "v9", ""});
    EXPECT_EQ(no_kind.GetStatus().Message(), R"(no version "example.com/v9" has been registered in scheme "test")");

    // A plain IsNotFound on some other NotFound is not "not registered".
    EXPECT_FALSE(IsNotRegistered(NotFoundError("pods \"x\" not found")));
}

TEST(SchemeTest, UnregisteredTypeNamesTheType) {
    Scheme scheme = WidgetScheme();
    auto kinds = scheme.ObjectKinds<Thing>();
    ASSERT_FALSE(kinds.Ok());
    EXPECT_TRUE(IsNotRegistered(kinds.GetStatus()));
    EXPECT_EQ(kinds.GetStatus().Message(),
              R"(no kind is registered for the type ctrl::scheme::testing::Thing in scheme "test")");
    EXPECT_TRUE(IsNotRegistered(scheme.ObjectKind<Thing>().GetStatus()));
}

TEST(SchemeTest, RegisteringTheSameTypeTwiceIsANoOp) {
    Scheme scheme = WidgetScheme();
    EXPECT_TRUE(scheme.AddKnownType<Widget>().Ok());
    EXPECT_EQ(*scheme.ObjectKinds<Widget>(), std::vector<GroupVersionKind>{kWidget});
    EXPECT_EQ(scheme.AllKnownTypes().size(), 2u);
}

TEST(SchemeTest, DoubleRegistrationOfDifferentTypesFailsAndRegistersNothing) {
    Scheme scheme = WidgetScheme();
    Status status = scheme.AddKnownType<ImpostorWidget>();
    EXPECT_TRUE(IsAlreadyExists(status)) << status;
    EXPECT_NE(status.Message().find("double registration of different types for example.com/v1, Kind=Widget"),
              std::string::npos)
        << status;
    EXPECT_NE(status.Message().find("ctrl::scheme::testing::ImpostorWidget"), std::string::npos) << status;
    EXPECT_FALSE(scheme.IsRegistered<ImpostorWidget>());
    EXPECT_FALSE(scheme.IsRegistered<TypedList<ImpostorWidget>>());
    EXPECT_EQ(*scheme.TypeFor(kWidget), std::type_index(typeid(Widget)));
}

TEST(SchemeTest, RefusesAKindWithoutVersion) {
    Scheme scheme("test");
    Status status = scheme.AddKnownType<Versionless>();
    EXPECT_TRUE(IsBadRequest(status)) << status;
    EXPECT_TRUE(scheme.AllKnownTypes().empty());
}

TEST(SchemeTest, KnownTypesByGroupVersionAndAll) {
    Scheme scheme = WidgetScheme();
    ASSERT_TRUE(scheme.AddKnownType<WidgetV2>().Ok());
    ASSERT_TRUE(scheme.AddKnownType<Thing>().Ok());

    auto v1 = scheme.KnownTypes({"example.com", "v1"});
    ASSERT_EQ(v1.size(), 2u);
    EXPECT_EQ(v1.at("Widget"), std::type_index(typeid(Widget)));
    EXPECT_EQ(v1.at("WidgetList"), std::type_index(typeid(TypedList<Widget>)));
    auto v2 = scheme.KnownTypes({"example.com", "v2"});
    EXPECT_EQ(v2.at("Widget"), std::type_index(typeid(WidgetV2)));
    EXPECT_TRUE(scheme.KnownTypes({"example.com", "v3"}).empty());

    auto all = scheme.AllKnownTypes();
    EXPECT_EQ(all.size(), 6u);
    EXPECT_EQ(all.at(GroupVersionKind{"", "v1", "ThingList"}), std::type_index(typeid(TypedList<Thing>)));

    auto info = scheme.AllKnownTypeInfo();
    ASSERT_EQ(info.size(), 6u);
    EXPECT_EQ(info.front().gvk, (GroupVersionKind{"", "v1", "Thing"}));  // ordered by GVK: core group first
    EXPECT_EQ(info.front().type_name, "ctrl::scheme::testing::Thing");
    EXPECT_FALSE(info.front().is_list);
    EXPECT_TRUE(info[1].is_list);

    EXPECT_TRUE(scheme.IsGroupRegistered("example.com"));
    EXPECT_TRUE(scheme.IsGroupRegistered(""));
    EXPECT_FALSE(scheme.IsGroupRegistered("apps"));
    EXPECT_TRUE(scheme.IsVersionRegistered({"example.com", "v2"}));
    EXPECT_FALSE(scheme.IsVersionRegistered({"example.com", "v3"}));
    EXPECT_EQ(scheme.VersionsForGroup("example.com"), (std::vector<std::string>{"v1", "v2"}));
    EXPECT_TRUE(scheme.VersionsForGroup("apps").empty());
}

TEST(SchemeTest, ConstReadsFromManyThreads) {
    Scheme scheme = WidgetScheme();
    ASSERT_TRUE(scheme.AddKnownType<Thing>().Ok());
    const Scheme& shared = scheme;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 2000; ++i) {
                if (!shared.Recognizes(kWidget) || !shared.New(kWidget).Ok() || !shared.ObjectKinds<Thing>().Ok() ||
                    shared.Recognizes(kWidgetV2)) {
                    failures.fetch_add(1);
                }
            }
        });
    }
    for (std::thread& thread : threads)
        thread.join();
    EXPECT_EQ(failures.load(), 0);
}

TEST(SchemeTest, MovesWithItsRegistrations) {
    Scheme scheme = WidgetScheme();
    Scheme moved = std::move(scheme);
    EXPECT_TRUE(moved.Recognizes(kWidget));
    EXPECT_EQ(moved.Name(), "test");
}

}  // namespace
}  // namespace ctrl::scheme
