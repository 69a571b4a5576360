// Hub-and-spoke conversion of the test Widgets (v2 the hub, v1 and v3 spokes): the functions'
// results, errors naming the object and the versions, and nothing lost on a round trip: fields one
// version cannot say are kept in an annotation and restored on the way back (decision 71).
#include "ctrl/webhook/conversion/converter.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "ctrl/webhook/conversion/convertible.hpp"
#include "ctrl/webhook/conversion/copy_field.hpp"
#include "test/unit/webhook/widget_kinds.hpp"

namespace ctrl::webhook::conversion {
namespace {

using ::testing::HasSubstr;
namespace widgets = ctrl::testing::widgets;

static_assert(Hub<widgets::v2::Widget>);
static_assert(Convertible<widgets::v1::Widget> && Convertible<widgets::v3::Widget>);
static_assert(!Hub<widgets::Gadget> && !Convertible<widgets::Gadget> && !Convertible<widgets::v2::Widget>);

Object Parse(std::string_view json) {
    StatusOr<Object> object = Object::Parse(json);
    EXPECT_TRUE(object.Ok()) << object.GetStatus();
    return object.Ok() ? std::move(object).Value() : Object();
}

Converter Widgets() {
    StatusOr<Converter> converter = HubConverter<widgets::v2::Widget>();
    EXPECT_TRUE(converter.Ok()) << converter.GetStatus();
    return std::move(converter).Value();
}

// What a v1 Widget said, with a field only v1 has (legacy) and fields no version declares.
constexpr std::string_view kV1 = R"({"apiVersion":"test.ctrl.dev/v1","kind":"Widget",
  "metadata":{"name":"w","namespace":"team-a","uid":"u-1","labels":{"app":"shop"}},
  "spec":{"sizeCm":30,"colour":"red","legacy":true,"extra":{"any":[1,2]}},
  "status":{"phase":"Ready"},"unknownTopLevel":"kept"})";

// A v2 Widget with a field only v2 and v3 have (tags).
constexpr std::string_view kV2 = R"({"apiVersion":"test.ctrl.dev/v2","kind":"Widget",
  "metadata":{"name":"w","namespace":"team-a"},
  "spec":{"size":{"value":30,"unit":"cm"},"color":"red","tags":["a","b"]},"status":{"phase":"Ready"}})";

TEST(ConverterTest, KnowsTheHubAndItsSpokes) {
    const Converter converter = Widgets();
    EXPECT_EQ(converter.Kind(), GroupKind("test.ctrl.dev", "Widget"));
    EXPECT_EQ(converter.Hub(), GroupVersionKind("test.ctrl.dev", "v2", "Widget"));
    EXPECT_EQ(converter.Versions(), (std::vector<std::string>{"v2", "v1", "v3"}));
    EXPECT_TRUE(converter.HasVersion("v3"));
    EXPECT_FALSE(converter.HasVersion("v4"));
}

TEST(ConverterTest, ASpokeConvertsToTheHubWithItsMetadata) {
    StatusOr<Object> hub = Widgets().Convert(Parse(kV1), "v2");
    ASSERT_TRUE(hub.Ok()) << hub.GetStatus();
    EXPECT_EQ(hub->ApiVersion(), "test.ctrl.dev/v2");
    EXPECT_EQ(hub->Kind(), "Widget");
    EXPECT_EQ(hub->Name(), "w");
    EXPECT_EQ(hub->Namespace(), "team-a");
    EXPECT_EQ(hub->Uid(), "u-1");
    EXPECT_EQ(hub->Label("app"), std::optional<std::string_view>("shop"));
    EXPECT_EQ(*hub->NestedInt({"spec", "size", "value"}), 30);
    EXPECT_EQ(*hub->NestedString({"spec", "size", "unit"}), "cm");
    EXPECT_EQ(*hub->NestedString({"spec", "color"}), "red");
    EXPECT_EQ(*hub->NestedString({"status", "phase"}), "Ready");
    EXPECT_FALSE(hub->HasNestedField({"spec", "legacy"})) << "v2 has no legacy: it is kept aside";
    EXPECT_FALSE(hub->HasNestedField({"spec", "colour"}));
}

TEST(ConverterTest, ARoundTripThroughAVersionThatCannotSayEverythingLosesNothing) {
    const Converter converter = Widgets();
    const Object original = Parse(kV1);
    StatusOr<Object> hub = converter.Convert(original, "v2");
    ASSERT_TRUE(hub.Ok()) << hub.GetStatus();
    const std::optional<std::string_view> kept = hub->Annotation(KeptContentAnnotation("v1"));
    ASSERT_TRUE(kept.has_value()) << "what v2 cannot say of the v1 object is kept: " << hub->ToJson();
    EXPECT_THAT(std::string(*kept), HasSubstr("\"legacy\":true"));

    StatusOr<Object> back = converter.Convert(*hub, "v1");
    ASSERT_TRUE(back.Ok()) << back.GetStatus();
    EXPECT_EQ(*back, original) << "read back as v1, it is the object it was: " << back->ToJson();
}

TEST(ConverterTest, WhatOnlyTheHubSaysSurvivesAnEditThroughASpoke) {
    const Converter converter = Widgets();
    StatusOr<Object> spoke = converter.Convert(Parse(kV2), "v1");
    ASSERT_TRUE(spoke.Ok()) << spoke.GetStatus();
    EXPECT_EQ(*spoke->NestedInt({"spec", "sizeCm"}), 30);
    EXPECT_EQ(*spoke->NestedString({"spec", "colour"}), "red");
    EXPECT_TRUE(spoke->Annotation(KeptContentAnnotation("v2")).has_value()) << "v1 cannot say tags";

    // A v1 client changes the colour and writes the object back.
    ASSERT_TRUE(spoke->SetNestedString({"spec", "colour"}, "blue").Ok());
    StatusOr<Object> hub = converter.Convert(*spoke, "v2");
    ASSERT_TRUE(hub.Ok()) << hub.GetStatus();
    EXPECT_EQ(*hub->NestedString({"spec", "color"}), "blue") << "the change made through v1 wins";
    EXPECT_EQ(*hub->NestedStringSlice({"spec", "tags"}), (std::vector<std::string>{"a", "b"}))
        << "what v1 cannot say is restored";
    EXPECT_FALSE(hub->Annotation(KeptContentAnnotation("v2")).has_value()) << "the kept content is used up";
    EXPECT_FALSE(hub->HasNestedField({"metadata", "annotations"})) << "nothing else to keep: " << hub->ToJson();
}

TEST(ConverterTest, AFieldRemovedThroughASpokeStaysRemoved) {
    const Converter converter = Widgets();
    StatusOr<Object> spoke = converter.Convert(Parse(kV2), "v1");
    ASSERT_TRUE(spoke.Ok());
    ASSERT_TRUE(spoke->RemoveNestedField({"spec", "colour"}));
    StatusOr<Object> hub = converter.Convert(*spoke, "v2");
    ASSERT_TRUE(hub.Ok());
    EXPECT_FALSE(hub->HasNestedField({"spec", "color"}));
    EXPECT_TRUE(hub->HasNestedField({"spec", "tags"}));
}

TEST(ConverterTest, NothingIsKeptWhenNothingIsLost) {
    StatusOr<Object> v3 = Widgets().Convert(Parse(kV2), "v3");
    ASSERT_TRUE(v3.Ok()) << v3.GetStatus();
    EXPECT_EQ(v3->ApiVersion(), "test.ctrl.dev/v3");
    EXPECT_FALSE(v3->HasNestedField({"metadata", "annotations"})) << v3->ToJson();
    EXPECT_EQ(*v3->NestedStringSlice({"spec", "tags"}), (std::vector<std::string>{"a", "b"}));
}

TEST(ConverterTest, ASpokeConvertsToAnotherSpokeThroughTheHub) {
    StatusOr<Object> v3 = Widgets().Convert(Parse(kV1), "v3");
    ASSERT_TRUE(v3.Ok()) << v3.GetStatus();
    EXPECT_EQ(v3->ApiVersion(), "test.ctrl.dev/v3");
    EXPECT_EQ(*v3->NestedInt({"spec", "size", "value"}), 30);
    EXPECT_EQ(*v3->NestedString({"spec", "color"}), "red");
    StatusOr<Object> back = Widgets().Convert(*v3, "v1");
    ASSERT_TRUE(back.Ok()) << back.GetStatus();
    EXPECT_EQ(*back, Parse(kV1));
}

TEST(ConverterTest, TheSameVersionIsACopy) {
    StatusOr<Object> same = Widgets().Convert(Parse(kV1), "v1");
    ASSERT_TRUE(same.Ok());
    EXPECT_EQ(*same, Parse(kV1));
}

TEST(ConverterTest, WhatASpokeCannotExpressIsAnErrorNamingTheObjectAndTheVersions) {
    Object inches = Parse(kV2);
    ASSERT_TRUE(inches.SetNestedString({"spec", "size", "unit"}, "in").Ok());
    StatusOr<Object> refused = Widgets().Convert(inches, "v1");
    ASSERT_FALSE(refused.Ok());
    EXPECT_TRUE(IsInvalid(refused.GetStatus())) << "the function's code is kept";
    EXPECT_EQ(refused.GetStatus().Message(),
              "converting Widget team-a/w from the hub test.ctrl.dev/v2 to test.ctrl.dev/v1: spec.size.unit \"in\": "
              "v1 says sizes in cm only");
    StatusOr<Object> through_hub = Widgets().Convert(*Widgets().Convert(inches, "v3"), "v1");
    ASSERT_FALSE(through_hub.Ok());
    EXPECT_THAT(through_hub.GetStatus().Message(), HasSubstr("from the hub test.ctrl.dev/v2 to test.ctrl.dev/v1"));
}

TEST(ConverterTest, UnknownVersionsAndOtherKindsAreRefusedByName) {
    const Converter converter = Widgets();
    Object v9 = Parse(kV1);
    v9.SetApiVersion("test.ctrl.dev/v9");
    StatusOr<Object> from_v9 = converter.Convert(v9, "v2");
    EXPECT_TRUE(IsNotFound(from_v9.GetStatus()));
    EXPECT_EQ(from_v9.GetStatus().Message(),
              "cannot convert Widget team-a/w from test.ctrl.dev/v9: v9 is not a version of Widget that converts "
              "(v2, v1, v3)");
    StatusOr<Object> to_v9 = converter.Convert(Parse(kV1), "v9");
    EXPECT_TRUE(IsNotFound(to_v9.GetStatus()));
    EXPECT_THAT(to_v9.GetStatus().Message(), HasSubstr("to test.ctrl.dev/v9"));
    Object gadget = Parse(kV1);
    gadget.SetKind("Gadget");
    EXPECT_TRUE(IsBadRequest(converter.Convert(gadget, "v2").GetStatus()));
    EXPECT_TRUE(IsBadRequest(converter.Convert(Parse(R"({"spec":{}})"), "v2").GetStatus()));
}

TEST(ConverterTest, AKeptContentThatIsNotJsonIsRefusedNamingTheAnnotation) {
    Object spoke = Parse(kV1);
    spoke.SetAnnotation(KeptContentAnnotation("v2"), "{not json");
    StatusOr<Object> refused = Widgets().Convert(spoke, "v2");
    ASSERT_FALSE(refused.Ok());
    EXPECT_TRUE(IsBadRequest(refused.GetStatus()));
    EXPECT_THAT(refused.GetStatus().Message(),
                HasSubstr("Widget team-a/w: annotation conversion.ctrl.dev/v2 is not JSON"));
    spoke.SetAnnotation(KeptContentAnnotation("v2"), "[1]");
    EXPECT_THAT(Widgets().Convert(spoke, "v2").GetStatus().Message(), HasSubstr("is not a JSON object"));
}

TEST(ConverterTest, SpokesAreCheckedWhenAdded) {
    Converter converter(GroupVersionKind("test.ctrl.dev", "v2", "Widget"));
    const auto keep = [](const Object&, Object&) { return OkStatus(); };
    EXPECT_TRUE(IsBadRequest(converter.AddSpoke({"", keep, keep})));
    EXPECT_TRUE(IsBadRequest(converter.AddSpoke({"v2", keep, keep})));
    EXPECT_TRUE(IsBadRequest(converter.AddSpoke({"v1", keep, nullptr})));
    EXPECT_TRUE(converter.AddSpoke({"v1", keep, keep}).Ok());
    EXPECT_TRUE(IsAlreadyExists(converter.AddSpoke({"v1", keep, keep})));
}

TEST(ConverterTest, SpokeWithTakesFunctionsForKindsThatDeclareNothing) {
    Converter converter(GroupVersionKind("test.ctrl.dev", "v2", "Widget"));
    ASSERT_TRUE(converter
                    .AddSpoke(SpokeWith<widgets::v2::Widget, widgets::v3::Widget>(
                        [](const widgets::v3::Widget& spoke, widgets::v2::Widget& hub) {
                            return CopyField(spoke, hub, {"spec"});
                        },
                        [](const widgets::v2::Widget& hub, widgets::v3::Widget& spoke) {
                            return CopyField(hub, spoke, {"spec"});
                        }))
                    .Ok());
    StatusOr<Object> v3 = converter.Convert(Parse(kV2), "v3");
    ASSERT_TRUE(v3.Ok()) << v3.GetStatus();
    EXPECT_EQ(*v3->NestedString({"spec", "color"}), "red");
    EXPECT_TRUE(v3->Annotation(KeptContentAnnotation("v2")).has_value()) << "status was not carried: it is kept";
}

}  // namespace
}  // namespace ctrl::webhook::conversion
