#include "ctrl/client/patch.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <type_traits>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "ctrl/api/pod.hpp"

namespace ctrl::client {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

Object MustParse(std::string_view json) {
    StatusOr<Object> parsed = Object::Parse(json);
    EXPECT_TRUE(parsed.Ok()) << parsed.GetStatus() << " in " << json;
    return parsed.Ok() ? std::move(parsed).Value() : Object();
}

std::string MustData(const Patch& patch, const Object& object) {
    StatusOr<std::string> data = patch.Data(object);
    EXPECT_TRUE(data.Ok()) << data.GetStatus();
    return data.Ok() ? data.Value() : "";
}

api::Pod WebPod() {
    StatusOr<api::Pod> pod = api::Pod::Parse(R"({"apiVersion":"v1","kind":"Pod",
        "metadata":{"name":"web","namespace":"default","resourceVersion":"42","labels":{"app":"web"}},
        "spec":{"containers":[{"name":"app","image":"nginx:1.25"}]}})");
    EXPECT_TRUE(pod.Ok()) << pod.GetStatus();
    return std::move(pod).Value();
}

TEST(PatchTest, ContentTypesAreTheApiServers) {
    EXPECT_EQ(PatchContentType(PatchType::kJsonPatch), "application/json-patch+json");
    EXPECT_EQ(PatchContentType(PatchType::kMergePatch), "application/merge-patch+json");
    EXPECT_EQ(PatchContentType(PatchType::kStrategicMergePatch), "application/strategic-merge-patch+json");
    EXPECT_EQ(PatchContentType(PatchType::kApply), "application/apply-patch+yaml");
}

TEST(PatchTest, RawPatchSendsItsDataAsIs) {
    const Patch patch = RawPatch(PatchType::kJsonPatch, R"([{"op":"remove","path":"/a"}])");
    EXPECT_EQ(patch.Type(), PatchType::kJsonPatch);
    EXPECT_EQ(MustData(patch, WebPod()), R"([{"op":"remove","path":"/a"}])");
}

// A Patch is a handle the caller can build inside a co_await expression even under GCC 12.
static_assert(std::is_trivially_destructible_v<Patch>);
static_assert(std::is_trivially_copyable_v<Patch>);

TEST(PatchTest, MergeFromReadsTheOriginalWhenTheBodyIsComputed) {
    const api::Pod original = WebPod();
    api::Pod pod = original.DeepCopy();
    const Patch patch = MergeFrom(original);
    EXPECT_EQ(patch.Type(), PatchType::kMergePatch);
    pod.SetLabel("app", "api");
    const Patch copy = patch;
    EXPECT_EQ(MustData(copy, pod), R"({"metadata":{"labels":{"app":"api"}}})");
    EXPECT_EQ(MustData(patch, WebPod()), "{}");
}

TEST(PatchTest, MergeFromSendsListsWhole) {
    const api::Pod original = WebPod();
    api::Pod pod = original.DeepCopy();
    pod.AddContainer("log", "fluentbit:2");
    EXPECT_EQ(MustData(MergeFrom(original), pod),
              R"({"spec":{"containers":[{"image":"nginx:1.25","name":"app"},{"image":"fluentbit:2","name":"log"}]}})");
}

TEST(PatchTest, OptimisticLockCarriesTheOriginalsResourceVersion) {
    const api::Pod original = WebPod();
    api::Pod pod = original.DeepCopy();
    pod.SetLabel("app", "api");
    const MergeFromOptions lock{.optimistic_lock = true};
    EXPECT_EQ(MustData(MergeFrom(original, lock), pod),
              R"({"metadata":{"labels":{"app":"api"},"resourceVersion":"42"}})");
    EXPECT_EQ(MustData(MergeFrom(original, lock), original), R"({"metadata":{"resourceVersion":"42"}})");
    // The version is the original's, whatever the object says.
    pod.SetResourceVersion("99");
    EXPECT_EQ(MustData(MergeFrom(original, lock), pod),
              R"({"metadata":{"labels":{"app":"api"},"resourceVersion":"42"}})");
    EXPECT_EQ(pod.ResourceVersion(), "99");  // and the object is not touched
    EXPECT_EQ(MustData(StrategicMergeFrom(original, lock), pod),
              R"({"metadata":{"labels":{"app":"api"},"resourceVersion":"42"}})");
}

TEST(PatchTest, OptimisticLockNeedsAResourceVersion) {
    api::Pod original = WebPod();
    original.SetResourceVersion("");
    for (const Patch& patch :
         {MergeFrom(original, {.optimistic_lock = true}), StrategicMergeFrom(original, {.optimistic_lock = true}),
          JsonPatchFrom(original, {.optimistic_lock = true})}) {
        StatusOr<std::string> data = patch.Data(WebPod());
        ASSERT_FALSE(data.Ok());
        EXPECT_TRUE(IsBadRequest(data.GetStatus()));
        EXPECT_THAT(data.GetStatus().Message(), HasSubstr("Pod default/web has no resourceVersion"));
    }
}

TEST(PatchTest, JsonPatchFromTestsTheResourceVersionFirst) {
    const api::Pod original = WebPod();
    api::Pod pod = original.DeepCopy();
    pod.SetLabel("tier", "fe");
    pod.SetResourceVersion("99");
    const Patch patch = JsonPatchFrom(original, {.optimistic_lock = true});
    EXPECT_EQ(patch.Type(), PatchType::kJsonPatch);
    EXPECT_EQ(MustData(patch, pod), R"([{"op":"test","path":"/metadata/resourceVersion","value":"42"},)"
                                    R"({"op":"add","path":"/metadata/labels/tier","value":"fe"}])");
    EXPECT_EQ(MustData(JsonPatchFrom(original), pod),
              R"([{"op":"replace","path":"/metadata/resourceVersion","value":"99"},)"
              R"({"op":"add","path":"/metadata/labels/tier","value":"fe"}])");
}

TEST(PatchTest, StrategicMergeFromMergesContainersByName) {
    const api::Pod original = WebPod();
    api::Pod pod = original.DeepCopy();
    pod.AddContainer("log", "fluentbit:2");
    ASSERT_TRUE(pod.AddFinalizer("example.com/cleanup"));
    const Patch patch = StrategicMergeFrom(original);
    EXPECT_EQ(patch.Type(), PatchType::kStrategicMergePatch);
    EXPECT_EQ(MustData(patch, pod), R"({"metadata":{"finalizers":["example.com/cleanup"]},)"
                                    R"("spec":{"$setElementOrder/containers":[{"name":"app"},{"name":"log"}],)"
                                    R"("containers":[{"image":"fluentbit:2","name":"log"}]}})");
}

TEST(PatchTest, StrategicMergeFromRefusesKindsWithoutKnownMergeKeys) {
    const vpcresources::SecurityGroupPolicy sgp;
    StatusOr<std::string> data = StrategicMergeFrom(sgp).Data(sgp);
    ASSERT_FALSE(data.Ok());
    EXPECT_TRUE(IsBadRequest(data.GetStatus()));
    EXPECT_THAT(data.GetStatus().Message(),
                StartsWith("strategic merge patch is not supported for vpcresources.k8s.aws/v1beta1, "
                           "Kind=SecurityGroupPolicy"));
    EXPECT_THAT(data.GetStatus().Message(), HasSubstr("use MergeFrom"));
}

TEST(PatchTest, StrategicMergeFromTakesTheKindFromTheObjectWhenTheOriginalHasNone) {
    const Object original = MustParse(R"({"metadata":{"finalizers":["a"]}})");
    EXPECT_EQ(MustData(StrategicMergeFrom(original), MustParse(R"({"apiVersion":"v1","kind":"Pod","metadata":{}})")),
              R"({"apiVersion":"v1","kind":"Pod","metadata":{"finalizers":null}})");
    StatusOr<std::string> data = StrategicMergeFrom(original).Data(original);
    ASSERT_FALSE(data.Ok());
    EXPECT_THAT(data.GetStatus().Message(), HasSubstr("no apiVersion and kind"));
}

TEST(PatchTest, ApplySendsTheObjectWithoutManagedFields) {
    api::Pod pod = WebPod();
    const Patch apply = Apply();
    EXPECT_EQ(apply.Type(), PatchType::kApply);
    EXPECT_EQ(MustData(apply, pod), pod.ToJson());
    ASSERT_TRUE(
        pod.SetNestedField({"metadata", "managedFields"}, MustParse(R"([{"manager":"kubectl","operation":"Apply"}])"))
            .Ok());
    ASSERT_TRUE(pod.HasManagedFields());
    const std::string body = MustData(apply, pod);
    EXPECT_EQ(body, R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"default",)"
                    R"("resourceVersion":"42","labels":{"app":"web"}},"spec":{"containers":[{"name":"app",)"
                    R"("image":"nginx:1.25"}]}})");
    EXPECT_TRUE(pod.HasManagedFields());  // the object is not touched
}

}  // namespace
}  // namespace ctrl::client
