// The code ctrl-gen generates for testdata/crds, compiled in (ctrl_generate_kinds) and exercised:
// accessors, presence, defaults, setters, nested writes, registration, round trips.
#include <gtest/gtest.h>

#include <string>

#include "ctrl/scheme/scheme.hpp"
#include "gen/blob.hpp"
#include "gen/collections_v1.hpp"
#include "gen/gallery.hpp"
#include "gen/gate.hpp"
#include "gen/nested_v1.hpp"
#include "gen/oddity.hpp"
#include "gen/shelf_v1.hpp"
#include "gen/shelf_v1beta1.hpp"
#include "gen/versions_v1.hpp"
#include "gen/versions_v1beta1.hpp"
#include "gen/widget.hpp"

namespace {

template <typename T>
T MustParse(const std::string& json) {
    auto parsed = T::Parse(json);
    EXPECT_TRUE(parsed.Ok()) << parsed.GetStatus();
    return std::move(parsed).Value();
}

TEST(GeneratedKindsTest, NestedObjectsAndScalars) {
    using gentest::nested::v1::Widget;
    const Widget widget = MustParse<Widget>(
        R"({"apiVersion":"nested.gen.example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},)"
        R"("spec":{"size":12,"label":"big","ratio":0.5,"enabled":true,"frame":{"material":"oak",)"
        R"("corner":{"radius":1.5}}}})");
    EXPECT_TRUE(widget.HasSpec());
    EXPECT_EQ(widget.Spec().Size(), 12);
    EXPECT_EQ(widget.Spec().Label(), std::optional<std::string>("big"));
    EXPECT_EQ(widget.Spec().Ratio(), std::optional<double>(0.5));
    EXPECT_EQ(widget.Spec().Enabled(), std::optional<bool>(true));
    EXPECT_EQ(widget.Spec().Frame().Material(), "oak");
    EXPECT_EQ(widget.Spec().Frame().Corner().Radius(), std::optional<double>(1.5));
    EXPECT_FALSE(widget.HasStatus());
    EXPECT_FALSE(widget.Status().Present());
    EXPECT_EQ(widget.Status().Ready(), std::nullopt);
    EXPECT_TRUE(widget.Validate().Ok()) << widget.Validate();

    const gentest::nested::v1::WidgetView view(widget);
    EXPECT_EQ(view.Spec().Frame().Material(), "oak");
    EXPECT_EQ(Widget::kPlural, "widgets");
    EXPECT_TRUE(Widget::kNamespaced);
}

TEST(GeneratedKindsTest, AbsentFieldsReadAsEmptyAndOptional) {
    gentest::nested::v1::Widget widget;
    EXPECT_EQ(widget.ToJson(), R"({"apiVersion":"nested.gen.example.com/v1","kind":"Widget"})");
    EXPECT_EQ(widget.Spec().Size(), 0);  // required: the zero value when absent
    EXPECT_EQ(widget.Spec().Label(), std::nullopt);
    EXPECT_FALSE(widget.Spec().HasSize());
}

TEST(GeneratedKindsTest, SettersCreateWhatIsMissing) {
    gentest::nested::v1::Widget widget;
    widget.SetName("w");
    auto spec = widget.MutableSpec();
    spec.SetSize(3);
    spec.SetLabel("small");
    spec.MutableFrame().MutableCorner().SetRadius(2.5);
    spec.MutableFrame().SetMaterial("pine");
    widget.MutableStatus().SetReady(false);  // a write elsewhere does not invalidate spec
    spec.SetEnabled(true);
    EXPECT_EQ(widget.ToJson(),
              R"({"apiVersion":"nested.gen.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":)"
              R"({"size":3,"label":"small","frame":{"corner":{"radius":2.5},"material":"pine"},"enabled":true},)"
              R"("status":{"ready":false}})");
    spec.ClearLabel();
    widget.ClearStatus();
    EXPECT_FALSE(widget.Spec().HasLabel());
    EXPECT_FALSE(widget.HasStatus());
}

TEST(GeneratedKindsTest, ArraysAndMaps) {
    using gentest::collections::v1::Gallery;
    Gallery gallery = MustParse<Gallery>(
        R"({"spec":{"pictures":[{"title":"a","tags":["x","y"],"sizes":[{"width":1,"height":2}]},{"title":"b"}],)"
        R"("ratings":[5,4,"bad"],"grid":[["a","b"],["c"]],"labels":{"k":"v","n":1},)"
        R"("rooms":{"east":{"floor":2,"open":true}},"extras":{"e":["1"]}}})");
    const auto pictures = gallery.Spec().Pictures();
    ASSERT_EQ(pictures.size(), 2u);
    EXPECT_EQ(pictures[0].Title(), "a");
    EXPECT_EQ(pictures[0].Tags(), (std::vector<std::string>{"x", "y"}));
    ASSERT_EQ(pictures[0].Sizes().size(), 1u);
    EXPECT_EQ(pictures[0].Sizes()[0].Height(), std::optional<int64_t>(2));
    EXPECT_EQ(pictures[1].Tags(), std::vector<std::string>{});
    EXPECT_EQ(gallery.Spec().Ratings(), (std::vector<int64_t>{5, 4}));  // the string is skipped
    ASSERT_EQ(gallery.Spec().Grid().size(), 2u);
    EXPECT_EQ(gallery.Spec().Grid()[1].ToJson(), R"(["c"])");
    EXPECT_EQ(gallery.Spec().Labels(), (std::map<std::string, std::string>{{"k", "v"}}));
    EXPECT_EQ(gallery.Spec().Rooms().at("east").Floor(), std::optional<int64_t>(2));
    EXPECT_EQ(gallery.Spec().Extras().at("e").ToJson(), R"(["1"])");

    auto spec = gallery.MutableSpec();
    auto added = spec.AddPictures();
    added.SetTitle("c");
    added.AddSizes().SetWidth(7);
    spec.MutablePictures(0).SetTitle("a2");
    spec.MutableRooms("west").SetOpen(false);
    spec.SetRatings({1, 2});
    spec.SetLabels({{"a", "b"}});
    EXPECT_EQ(gallery.Spec().Pictures()[0].Title(), "a2");
    EXPECT_EQ(gallery.Spec().Pictures()[2].Title(), "c");
    EXPECT_EQ(gallery.Spec().Pictures()[2].Sizes()[0].Width(), std::optional<int64_t>(7));
    EXPECT_EQ(gallery.Spec().Rooms().at("west").Open(), std::optional<bool>(false));
    EXPECT_EQ(gallery.Spec().Ratings(), (std::vector<int64_t>{1, 2}));
    spec.MutablePictures(9).SetTitle("nowhere");  // out of range: a no-op
    EXPECT_EQ(gallery.Spec().Pictures().size(), 3u);
}

TEST(GeneratedKindsTest, IntOrStringAndDefaults) {
    using gentest::ports::v1::Gate;
    Gate gate = MustParse<Gate>(R"({"spec":{"port":"http","extraPorts":[80,"https"],"limits":{"a":1,"b":"50%"}}})");
    ASSERT_TRUE(gate.Spec().Port().has_value());
    EXPECT_FALSE(gate.Spec().Port()->IsInt());
    EXPECT_EQ(gate.Spec().Port()->StrValue(), "http");
    EXPECT_EQ(gate.Spec().MaxUnavailable(), ctrl::scheme::IntOrString("25%"));  // the schema's default
    EXPECT_EQ(gate.Spec().FallbackPort(), ctrl::scheme::IntOrString(8080));
    EXPECT_EQ(gate.Spec().ExtraPorts(), (std::vector<ctrl::scheme::IntOrString>{ctrl::scheme::IntOrString(80),
                                                                                ctrl::scheme::IntOrString("https")}));
    EXPECT_EQ(gate.Spec().Limits().at("b").String(), "50%");
    gate.MutableSpec().SetPort(8443);
    gate.MutableSpec().SetMaxUnavailable(ctrl::scheme::IntOrString(1));
    EXPECT_EQ(gate.Spec().Port()->IntValue(), 8443);
    EXPECT_EQ(gate.Spec().MaxUnavailable().IntValue(), 1);
    EXPECT_TRUE(gate.Validate().Ok()) << gate.Validate();
}

TEST(GeneratedKindsTest, PreservedUnknownFields) {
    using gentest::preserve::v1::Blob;
    const std::string json =
        R"({"apiVersion":"preserve.gen.example.com/v1","kind":"Blob","metadata":{"name":"b"},"spec":{"config":)"
        R"({"a":{"b":[1,2,{"c":null}]}},"template":{"apiVersion":"v1","kind":"ConfigMap"},"value":[true,"x"],)"
        R"("options":{"verbose":true,"unknownOption":{"deep":1}},"future":"kept"},"status":{"anything":1},)"
        R"("topLevelUnknown":{"x":1}})";
    Blob blob = MustParse<Blob>(json);
    EXPECT_EQ(blob.Spec().Config()->ToJson(), R"({"a":{"b":[1,2,{"c":null}]}})");
    EXPECT_EQ(blob.Spec().Template()->Kind(), "ConfigMap");
    EXPECT_EQ(blob.Spec().Value()->ToJson(), R"([true,"x"])");
    EXPECT_EQ(blob.Spec().Options().Verbose(), std::optional<bool>(true));
    EXPECT_EQ(blob.Status()->ToJson(), R"({"anything":1})");
    blob.MutableSpec().MutableOptions().SetVerbose(false);
    auto config = ctrl::Object::Parse(R"({"z":[]})");
    blob.MutableSpec().SetConfig(*config);
    auto reparsed = MustParse<Blob>(blob.ToJson());
    EXPECT_EQ(reparsed.Spec().Config()->ToJson(), R"({"z":[]})");
    // Everything the schema does not name survives writes next to it.
    EXPECT_EQ(*reparsed.NestedString({"spec", "future"}), "kept");
    EXPECT_EQ(*reparsed.NestedInt({"spec", "options", "unknownOption", "deep"}), 1);
    EXPECT_EQ(*reparsed.NestedInt({"topLevelUnknown", "x"}), 1);
}

TEST(GeneratedKindsTest, NamesThatAreNotIdentifiers) {
    using gentest::names::v1::Oddity;
    Oddity odd = MustParse<Oddity>(
        R"({"name":"root","spec":{"class":"c","namespace":"n","x-dashed-name":"d","dotted.name":"o","3d":true,)"
        R"("fooBar":"1","foo-bar":"2","foo":"f","hasFoo":"h","validate":"v","present":"p","aB":{"x":"ab"},)"
        R"("a":{"b":{"y":"a.b"}}}})");
    EXPECT_EQ(odd.NameField(), std::optional<std::string>("root"));  // Name() is the object's name
    EXPECT_EQ(odd.Spec().Class(), std::optional<std::string>("c"));
    EXPECT_EQ(odd.Spec().Namespace(), std::optional<std::string>("n"));
    EXPECT_EQ(odd.Spec().XDashedName(), std::optional<std::string>("d"));
    EXPECT_EQ(odd.Spec().DottedName(), std::optional<std::string>("o"));
    EXPECT_EQ(odd.Spec().Field3d(), std::optional<bool>(true));
    EXPECT_EQ(odd.Spec().FooBar(), std::optional<std::string>("1"));
    EXPECT_EQ(odd.Spec().FooBarField(), std::optional<std::string>("2"));
    EXPECT_EQ(odd.Spec().Foo(), std::optional<std::string>("f"));
    EXPECT_EQ(odd.Spec().HasFooField(), std::optional<std::string>("h"));
    EXPECT_EQ(odd.Spec().ValidateField(), std::optional<std::string>("v"));
    EXPECT_EQ(odd.Spec().PresentField(), std::optional<std::string>("p"));
    EXPECT_EQ(odd.Spec().AB().X(), std::optional<std::string>("ab"));
    gentest::names::v1::OdditySpecAB ab = odd.Spec().AB();
    gentest::names::v1::OdditySpecAB2 a_b = odd.Spec().A().B();  // the later path gets the suffix
    EXPECT_EQ(a_b.Y(), std::optional<std::string>("a.b"));
    EXPECT_TRUE(ab.Present());
}

TEST(GeneratedKindsTest, AddToSchemeRegistersKindsListsAndScope) {
    ctrl::scheme::Scheme scheme;
    ASSERT_TRUE(gentest::versions::v1::AddToScheme(scheme).Ok());
    ASSERT_TRUE(gentest::versions::v1beta1::AddToScheme(scheme).Ok());
    ASSERT_TRUE(gentest::collections::v1::AddToScheme(scheme).Ok());
    EXPECT_TRUE(scheme.IsRegistered<gentest::versions::v1::Shelf>());
    EXPECT_TRUE(scheme.IsRegistered<gentest::versions::v1beta1::Shelf>());
    EXPECT_TRUE(scheme.Recognizes({"versions.gen.example.com", "v1beta1", "ShelfList"}));
    EXPECT_FALSE(scheme.Recognizes({"versions.gen.example.com", "v1alpha1", "Shelf"}));  // not served
    EXPECT_TRUE(scheme.IsRegistered<gentest::collections::v1::GalleryList>());
    EXPECT_FALSE(gentest::versions::v1::Shelf::kNamespaced);
    gentest::versions::v1::Shelf shelf;
    shelf.MutableSpec().SetWidthCm(80);
    EXPECT_EQ(shelf.ToJson(), R"({"apiVersion":"versions.gen.example.com/v1","kind":"Shelf","spec":{"widthCm":80}})");
}

TEST(GeneratedKindsTest, ListsReadItemsThroughViews) {
    auto list = gentest::nested::v1::WidgetList::Parse(
        R"({"apiVersion":"nested.gen.example.com/v1","kind":"WidgetList","items":[{"spec":{"size":1}},)"
        R"({"spec":{"size":2}}]})");
    ASSERT_TRUE(list.Ok()) << list.GetStatus();
    std::vector<int64_t> sizes;
    for (gentest::nested::v1::WidgetView widget : list->Views())
        sizes.push_back(widget.Spec().Size());
    EXPECT_EQ(sizes, (std::vector<int64_t>{1, 2}));
}

}  // namespace
