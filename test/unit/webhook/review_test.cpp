#include "ctrl/webhook/admission/review.hpp"

#include <gtest/gtest.h>

#include <string>

#include "ctrl/core/base64.hpp"

namespace ctrl::webhook::admission {
namespace {

// An AdmissionReview as kube-apiserver v1.37 sends it for a ConfigMap update (fields it always
// sets, and options).
constexpr std::string_view kUpdateReview = R"({
  "kind": "AdmissionReview", "apiVersion": "admission.k8s.io/v1",
  "request": {
    "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
    "kind": {"group": "", "version": "v1", "kind": "ConfigMap"},
    "resource": {"group": "", "version": "v1", "resource": "configmaps"},
    "requestKind": {"group": "", "version": "v1", "kind": "ConfigMap"},
    "requestResource": {"group": "", "version": "v1", "resource": "configmaps"},
    "name": "settings", "namespace": "team-a", "operation": "UPDATE",
    "userInfo": {"username": "alice", "uid": "u-1", "groups": ["system:authenticated", "devs"]},
    "object": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}, "data": {"a": "2"}},
    "oldObject": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}, "data": {"a": "1"}},
    "dryRun": true,
    "options": {"kind": "UpdateOptions", "apiVersion": "meta.k8s.io/v1", "fieldManager": "kubectl"}
  }
})";

TEST(ReviewTest, DecodesEveryFieldOfAnUpdate) {
    StatusOr<Review> review = DecodeReview(kUpdateReview);
    ASSERT_TRUE(review.Ok()) << review.GetStatus();
    const Request& request = review->request;
    EXPECT_EQ(review->api_version, "admission.k8s.io/v1");
    EXPECT_EQ(request.uid, "705ab4f5-6393-11e8-b7cc-42010a800002");
    EXPECT_EQ(request.kind, GroupVersionKind("", "v1", "ConfigMap"));
    EXPECT_EQ(request.resource, GroupVersionResource("", "v1", "configmaps"));
    EXPECT_EQ(request.request_kind, GroupVersionKind("", "v1", "ConfigMap"));
    EXPECT_EQ(request.name, "settings");
    EXPECT_EQ(request.namespace_name, "team-a");
    EXPECT_EQ(request.operation, Operation::kUpdate);
    EXPECT_EQ(request.user_info.username, "alice");
    EXPECT_EQ(request.user_info.groups, (std::vector<std::string>{"system:authenticated", "devs"}));
    ASSERT_TRUE(request.has_object && request.has_old_object);
    EXPECT_EQ(*request.object.NestedString({"data", "a"}), "2");
    EXPECT_EQ(*request.old_object.NestedString({"data", "a"}), "1");
    EXPECT_TRUE(request.dry_run);
    EXPECT_EQ(*request.options.NestedString({"fieldManager"}), "kubectl");
}

TEST(ReviewTest, ADeleteHasAnOldObjectOnlyAndV1beta1IsKept) {
    StatusOr<Review> review = DecodeReview(R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1beta1",
        "request":{"uid":"1","operation":"DELETE","object":null,
        "oldObject":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}}})");
    ASSERT_TRUE(review.Ok()) << review.GetStatus();
    EXPECT_EQ(review->api_version, "admission.k8s.io/v1beta1");
    EXPECT_FALSE(review->request.has_object);
    EXPECT_TRUE(review->request.has_old_object);
    EXPECT_FALSE(review->request.dry_run);
}

TEST(ReviewTest, BadInputIsABadRequestThatSaysWhat) {
    const std::pair<std::string_view, std::string_view> cases[] = {
        {"", "empty"},
        {"{", "AdmissionReview:"},
        {"[]", "not a JSON object"},
        {R"({"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1"})", "not an admission.k8s.io/v1"},
        {R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1"})", "no request"},
        {R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"operation":"CREATE"}})",
         "request.uid"},
        {R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"uid":"1","operation":"PATCH"}})",
         "\"PATCH\""},
        {R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"uid":"1","operation":"CREATE",
            "object":[1]}})",
         "request.object is not a JSON object"},
    };
    for (const auto& [body, says] : cases) {
        StatusOr<Review> review = DecodeReview(body);
        ASSERT_FALSE(review.Ok()) << body;
        EXPECT_TRUE(IsBadRequest(review.GetStatus())) << body;
        EXPECT_NE(review.GetStatus().Message().find(says), std::string::npos) << review.GetStatus().Message();
    }
}

TEST(ReviewTest, ARefusalCarriesItsStatusCausesAndWarnings) {
    Response response = FromStatus(InvalidError("spec.groupIds[0] \"x\" is not a security group id")
                                       .WithCauses({{"FieldValueInvalid", "bad id", "spec.groupIds[0]"}}));
    response.WithWarnings({"groupIds will be renamed"});
    StatusOr<Object> review = Object::Parse(EncodeReview("admission.k8s.io/v1", "uid-7", response));
    ASSERT_TRUE(review.Ok());
    EXPECT_EQ(review->Kind(), "AdmissionReview");
    EXPECT_EQ(*review->NestedString({"response", "uid"}), "uid-7");
    EXPECT_FALSE(*review->NestedBool({"response", "allowed"}));
    EXPECT_EQ(*review->NestedInt({"response", "status", "code"}), 422);
    EXPECT_EQ(*review->NestedString({"response", "status", "reason"}), "Invalid");
    EXPECT_EQ(*review->NestedString({"response", "status", "message"}),
              "spec.groupIds[0] \"x\" is not a security group id");
    StatusOr<std::vector<Object>> causes = review->NestedSlice({"response", "status", "details", "causes"});
    ASSERT_TRUE(causes.Ok() && causes->size() == 1u);
    EXPECT_EQ(*(*causes)[0].NestedString({"field"}), "spec.groupIds[0]");
    EXPECT_EQ(*review->NestedStringSlice({"response", "warnings"}),
              std::vector<std::string>{"groupIds will be renamed"});
}

TEST(ReviewTest, AnErrorWithoutAnHttpCodeIsDeniedAsForbidden) {
    const Response response = FromStatus(UnknownError("no"));
    EXPECT_FALSE(response.allowed);
    EXPECT_EQ(response.code, 403);
    EXPECT_EQ(response.reason, "Forbidden");
    EXPECT_EQ(FromStatus(InternalError("broken")).code, 500);
    EXPECT_TRUE(FromStatus(OkStatus()).allowed);
}

TEST(ReviewTest, APatchResponseCarriesTheComputedJsonPatchInBase64) {
    StatusOr<Object> before = Object::Parse(R"({"metadata":{"name":"a"},"x":{"keep":1}})");
    StatusOr<Object> after = Object::Parse(R"({"metadata":{"name":"a","labels":{"d":"y"}},"x":{"keep":1}})");
    ASSERT_TRUE(before.Ok() && after.Ok());
    const Response response = PatchResponse(*before, *after);
    EXPECT_TRUE(response.allowed);
    EXPECT_EQ(response.patch, R"([{"op":"add","path":"/metadata/labels","value":{"d":"y"}}])");
    StatusOr<Object> review = Object::Parse(EncodeReview("admission.k8s.io/v1", "u", response));
    ASSERT_TRUE(review.Ok());
    EXPECT_EQ(*review->NestedString({"response", "patchType"}), "JSONPatch");
    EXPECT_EQ(*Base64Decode(*review->NestedString({"response", "patch"})), response.patch);
    EXPECT_TRUE(PatchResponse(*before, *before).patch.empty()) << "no change: no patch";
}

}  // namespace
}  // namespace ctrl::webhook::admission
