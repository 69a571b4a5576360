// ConversionReview decoding and encoding (apiextensions.k8s.io/v1 and v1beta1), and the registry
// answering a request: objects converted in order, the first failure naming the object.
#include "ctrl/webhook/conversion/review.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "ctrl/webhook/conversion/convertible.hpp"
#include "ctrl/webhook/conversion/registry.hpp"
#include "test/unit/webhook/widget_kinds.hpp"

namespace ctrl::webhook::conversion {
namespace {

using ::testing::HasSubstr;

// A ConversionReview as kube-apiserver v1.37 sends it: two stored v2 Widgets read as v1.
constexpr std::string_view kReview = R"({
  "kind": "ConversionReview", "apiVersion": "apiextensions.k8s.io/v1",
  "request": {
    "uid": "0000-1111", "desiredAPIVersion": "test.ctrl.dev/v1",
    "objects": [
      {"apiVersion": "test.ctrl.dev/v2", "kind": "Widget", "metadata": {"name": "a", "namespace": "ns"},
       "spec": {"color": "red"}},
      {"apiVersion": "test.ctrl.dev/v2", "kind": "Widget", "metadata": {"name": "b", "namespace": "ns"},
       "spec": {"color": "blue"}}
    ]
  }
})";

Object Parse(std::string_view json) {
    StatusOr<Object> object = Object::Parse(json);
    EXPECT_TRUE(object.Ok()) << object.GetStatus();
    return object.Ok() ? std::move(object).Value() : Object();
}

std::shared_ptr<Registry> WidgetRegistry() {
    auto registry = std::make_shared<Registry>();
    StatusOr<Converter> widgets = HubConverter<ctrl::testing::widgets::v2::Widget>();
    EXPECT_TRUE(widgets.Ok() && registry->Register(std::move(widgets).Value()).Ok());
    return registry;
}

TEST(ConversionReviewTest, DecodesTheRequest) {
    StatusOr<Review> review = DecodeReview(kReview);
    ASSERT_TRUE(review.Ok()) << review.GetStatus();
    EXPECT_EQ(review->api_version, "apiextensions.k8s.io/v1");
    EXPECT_EQ(review->request.uid, "0000-1111");
    EXPECT_EQ(review->request.desired_api_version, "test.ctrl.dev/v1");
    ASSERT_EQ(review->request.objects.size(), 2u);
    EXPECT_EQ(review->request.objects[1].Name(), "b");
}

TEST(ConversionReviewTest, KeepsV1beta1AndTakesNoObjects) {
    StatusOr<Review> review = DecodeReview(R"({"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1beta1",
        "request":{"uid":"1","desiredAPIVersion":"test.ctrl.dev/v1"}})");
    ASSERT_TRUE(review.Ok()) << review.GetStatus();
    EXPECT_EQ(review->api_version, "apiextensions.k8s.io/v1beta1");
    EXPECT_TRUE(review->request.objects.empty());
}

TEST(ConversionReviewTest, RefusesWhatIsNotAConversionReviewSayingWhy) {
    const std::pair<std::string_view, std::string_view> cases[] = {
        {"", "the request body is empty"},
        {"{", "invalid JSON"},
        {"[]", "not a JSON object"},
        {R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1"})", "not an apiextensions.k8s.io/v1"},
        {R"({"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1"})", "no request"},
        {R"({"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","request":{"desiredAPIVersion":"a/v1"}})",
         "request.uid is missing"},
        {R"({"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","request":{"uid":"1"}})",
         "request.desiredAPIVersion is missing"},
        {R"({"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","request":{"uid":"1",
            "desiredAPIVersion":"a/v1","objects":{}}})",
         "request.objects is not a list"},
        {R"({"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","request":{"uid":"1",
            "desiredAPIVersion":"a/v1","objects":[{"apiVersion":"a/v2","kind":"W"},"x"]}})",
         "request.objects[1] is not a JSON object"},
        {R"({"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","request":{"uid":"1",
            "desiredAPIVersion":"a/v1","objects":[{"kind":"W"}]}})",
         "request.objects[0] has no apiVersion or kind"},
    };
    for (const auto& [body, why] : cases) {
        StatusOr<Review> review = DecodeReview(body);
        ASSERT_FALSE(review.Ok()) << body;
        EXPECT_TRUE(IsBadRequest(review.GetStatus())) << body;
        EXPECT_THAT(review.GetStatus().Message(), HasSubstr(std::string(why))) << body;
    }
}

TEST(ConversionReviewTest, EncodesASuccessWithTheObjectsInOrder) {
    Response response;
    response.converted_objects.push_back(Parse(R"({"apiVersion":"a/v1","kind":"W","metadata":{"name":"x"}})"));
    response.converted_objects.push_back(Parse(R"({"apiVersion":"a/v1","kind":"W","metadata":{"name":"y"}})"));
    const Object review = Parse(EncodeReview("apiextensions.k8s.io/v1", "u\"1", response));
    EXPECT_EQ(review.ApiVersion(), "apiextensions.k8s.io/v1");
    EXPECT_EQ(review.Kind(), "ConversionReview");
    EXPECT_EQ(*review.NestedString({"response", "uid"}), "u\"1");
    EXPECT_EQ(*review.NestedString({"response", "result", "status"}), "Success");
    StatusOr<std::vector<Object>> objects = review.NestedSlice({"response", "convertedObjects"});
    ASSERT_TRUE(objects.Ok());
    ASSERT_EQ(objects->size(), 2u);
    EXPECT_EQ((*objects)[1].Name(), "y");
}

TEST(ConversionReviewTest, EncodesAFailureWithItsMessageAndCode) {
    Response response;
    response.converted_objects.push_back(Parse(R"({"apiVersion":"a/v1","kind":"W"})"));
    response.result = InvalidError("spec.x cannot be said in v1");
    const Object review = Parse(EncodeReview("", "1", response));
    EXPECT_EQ(review.ApiVersion(), "apiextensions.k8s.io/v1");
    EXPECT_EQ(*review.NestedString({"response", "result", "status"}), "Failure");
    EXPECT_EQ(*review.NestedString({"response", "result", "message"}), "spec.x cannot be said in v1");
    EXPECT_EQ(*review.NestedInt({"response", "result", "code"}), 422);
    EXPECT_TRUE(review.NestedSlice({"response", "convertedObjects"})->empty()) << "a failure returns no object";
    response.result = BadRequestError("x");
    EXPECT_EQ(*Parse(EncodeReview("", "1", response)).NestedInt({"response", "result", "code"}), 400);
    response.result = UnknownError("x").WithHttpCode(418);
    EXPECT_EQ(*Parse(EncodeReview("", "1", response)).NestedInt({"response", "result", "code"}), 418);
}

TEST(ConversionRegistryTest, ConvertsEveryObjectInOrder) {
    StatusOr<Review> review = DecodeReview(kReview);
    ASSERT_TRUE(review.Ok());
    const Response response = WidgetRegistry()->Convert(review->request);
    ASSERT_TRUE(response.result.Ok()) << response.result;
    ASSERT_EQ(response.converted_objects.size(), 2u);
    EXPECT_EQ(response.converted_objects[0].ApiVersion(), "test.ctrl.dev/v1");
    EXPECT_EQ(*response.converted_objects[0].NestedString({"spec", "colour"}), "red");
    EXPECT_EQ(*response.converted_objects[1].NestedString({"spec", "colour"}), "blue");
}

TEST(ConversionRegistryTest, AnObjectInTheDesiredVersionPassesThrough) {
    Request request;
    request.uid = "1";
    request.desired_api_version = "test.ctrl.dev/v2";
    request.objects.push_back(Parse(R"({"apiVersion":"test.ctrl.dev/v2","kind":"Widget","spec":{"tags":["t"]}})"));
    const Response response = WidgetRegistry()->Convert(request);
    ASSERT_TRUE(response.result.Ok()) << response.result;
    EXPECT_EQ(response.converted_objects.front(), request.objects.front());
}

TEST(ConversionRegistryTest, TheFirstObjectThatCannotBeConvertedFailsTheRequestByName) {
    Request request;
    request.uid = "1";
    request.desired_api_version = "test.ctrl.dev/v1";
    request.objects.push_back(Parse(R"({"apiVersion":"test.ctrl.dev/v2","kind":"Widget","metadata":{"name":"a"}})"));
    request.objects.push_back(
        Parse(R"({"apiVersion":"test.ctrl.dev/v2","kind":"Gadget","metadata":{"name":"g","namespace":"ns"}})"));
    Response response = WidgetRegistry()->Convert(request);
    EXPECT_TRUE(IsNotFound(response.result));
    EXPECT_EQ(response.result.Message(),
              "request.objects[1] (test.ctrl.dev/v2 Gadget ns/g): no conversion of Gadget.test.ctrl.dev is registered "
              "with this webhook");
    EXPECT_TRUE(response.converted_objects.empty());

    request.desired_api_version = "other.dev/v1";
    response = WidgetRegistry()->Convert(request);
    EXPECT_TRUE(IsBadRequest(response.result));
    EXPECT_THAT(response.result.Message(), HasSubstr("request.objects[0] (test.ctrl.dev/v2 Widget a) is of group"));

    request.desired_api_version = "a/b/c";
    EXPECT_THAT(WidgetRegistry()->Convert(request).result.Message(), HasSubstr("is not an apiVersion"));

    request.objects.resize(1);
    ASSERT_TRUE(request.objects[0].SetNestedString({"spec", "size", "unit"}, "in").Ok());
    ASSERT_TRUE(request.objects[0].SetNestedInt({"spec", "size", "value"}, 3).Ok());
    request.desired_api_version = "test.ctrl.dev/v1";
    response = WidgetRegistry()->Convert(request);
    EXPECT_TRUE(IsInvalid(response.result));
    EXPECT_THAT(response.result.Message(), HasSubstr("converting Widget a from the hub test.ctrl.dev/v2"));
}

TEST(ConversionRegistryTest, AGroupKindIsRegisteredOnce) {
    std::shared_ptr<Registry> registry = WidgetRegistry();
    EXPECT_TRUE(registry->Registered(GroupKind("test.ctrl.dev", "Widget")));
    EXPECT_NE(registry->Find(GroupKind("test.ctrl.dev", "Widget")), nullptr);
    EXPECT_EQ(registry->Find(GroupKind("test.ctrl.dev", "Gadget")), nullptr);
    StatusOr<Converter> again = HubConverter<ctrl::testing::widgets::v2::Widget>();
    ASSERT_TRUE(again.Ok());
    EXPECT_TRUE(IsAlreadyExists(registry->Register(std::move(again).Value())));
}

}  // namespace
}  // namespace ctrl::webhook::conversion
