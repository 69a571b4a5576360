#include "ctrl/client/internal/strategic_merge_patch.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <string_view>

#include "test/support/repo_path.hpp"
#include "test/unit/client/golden.hpp"

namespace ctrl::client::internal {
namespace {

using ::testing::HasSubstr;

Object MustParse(std::string_view json) {
    StatusOr<Object> parsed = Object::Parse(json);
    EXPECT_TRUE(parsed.Ok()) << parsed.GetStatus() << " in " << json;
    return parsed.Ok() ? std::move(parsed).Value() : Object();
}

const PatchSchema& SchemaOf(std::string_view group, std::string_view kind) {
    const PatchSchema* schema = FindPatchSchema({std::string(group), "v1", std::string(kind)});
    EXPECT_NE(schema, nullptr) << kind;
    static const PatchSchema kNone{};
    return schema != nullptr ? *schema : kNone;
}

StatusOr<std::string> PodPatch(std::string_view original, std::string_view modified) {
    return CreateTwoWayStrategicMergePatch(MustParse(original), MustParse(modified), SchemaOf("", "Pod"));
}

std::string MustPodPatch(std::string_view original, std::string_view modified) {
    StatusOr<std::string> patch = PodPatch(original, modified);
    EXPECT_TRUE(patch.Ok()) << patch.GetStatus();
    return patch.Ok() ? patch.Value() : "";
}

// The expected patches below are what apimachinery v0.37.2's CreateTwoWayMergePatch gives for the
// same objects with the k8s.io/api v0.37.2 Pod type.

TEST(StrategicMergePatchTest, AChangedContainerCarriesItsNameAndTheListOrder) {
    EXPECT_EQ(
        MustPodPatch(R"({"spec":{"containers":[{"name":"app","image":"nginx:1.25"},{"name":"log","image":"fb"}]}})",
                     R"({"spec":{"containers":[{"name":"app","image":"nginx:1.27"},{"name":"log","image":"fb"}]}})"),
        R"({"spec":{"$setElementOrder/containers":[{"name":"app"},{"name":"log"}],)"
        R"("containers":[{"image":"nginx:1.27","name":"app"}]}})");
}

TEST(StrategicMergePatchTest, AddedContainersAreWholeAndRemovedOnesAreDeleteDirectives) {
    EXPECT_EQ(MustPodPatch(R"({"spec":{"containers":[{"name":"app","image":"a"},{"name":"old","image":"o"}]}})",
                           R"({"spec":{"containers":[{"name":"new","image":"n"},{"name":"app","image":"a"}]}})"),
              R"({"spec":{"$setElementOrder/containers":[{"name":"new"},{"name":"app"}],)"
              R"("containers":[{"image":"n","name":"new"},{"$patch":"delete","name":"old"}]}})");
}

TEST(StrategicMergePatchTest, ARemovedEnvVarIsDeletedByName) {
    EXPECT_EQ(
        MustPodPatch(
            R"({"spec":{"containers":[{"name":"app","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}]}})",
            R"({"spec":{"containers":[{"name":"app","env":[{"name":"A","value":"1"}]}]}})"),
        R"({"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"$setElementOrder/env":)"
        R"([{"name":"A"}],"env":[{"$patch":"delete","name":"B"}],"name":"app"}]}})");
}

TEST(StrategicMergePatchTest, FinalizersAreAMergeListOfPrimitives) {
    EXPECT_EQ(MustPodPatch(R"({"metadata":{"finalizers":["b.io/x","a.io/y","c.io/z"]}})",
                           R"({"metadata":{"finalizers":["c.io/z","d.io/new","b.io/x"]}})"),
              R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["a.io/y"],)"
              R"("$setElementOrder/finalizers":["c.io/z","d.io/new","b.io/x"],"finalizers":["d.io/new"]}})");
    EXPECT_EQ(MustPodPatch(R"({"metadata":{"finalizers":["a"]}})", R"({"metadata":{"finalizers":["a","b"]}})"),
              R"({"metadata":{"$setElementOrder/finalizers":["a","b"],"finalizers":["b"]}})");
    EXPECT_EQ(MustPodPatch(R"({"metadata":{"finalizers":["a"]}})", R"({"metadata":{"finalizers":[]}})"),
              R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}})");
}

TEST(StrategicMergePatchTest, ARemovedLabelIsNull) {
    EXPECT_EQ(MustPodPatch(R"({"metadata":{"labels":{"app":"web","tier":"fe"}}})",
                           R"({"metadata":{"labels":{"app":"web"}}})"),
              R"({"metadata":{"labels":{"tier":null}}})");
}

TEST(StrategicMergePatchTest, EqualObjectsGiveAnEmptyPatch) {
    const std::string pod =
        R"({"metadata":{"finalizers":["z.io/b","a.io/a"]},"spec":{"containers":[{"name":"b"},{"name":"a"}]}})";
    // Go answers {"metadata":{"$setElementOrder/finalizers":["z.io/b","a.io/a"]}} here: it sorts the
    // original list in place before comparing it with modified. The runtime sends the order only
    // when the list changed (a no-op for the server either way).
    EXPECT_EQ(MustPodPatch(pod, pod), "{}");
}

TEST(StrategicMergePatchTest, AtomicListsAreReplacedWhole) {
    EXPECT_EQ(MustPodPatch(R"({"spec":{"tolerations":[{"key":"a"},{"key":"b"}]}})",
                           R"({"spec":{"tolerations":[{"key":"b"}]}})"),
              R"({"spec":{"tolerations":[{"key":"b"}]}})");
}

TEST(StrategicMergePatchTest, MatchesGoOnNamedCases) {
    std::ifstream in(::ctrl::testing::RepoPath(CTRL_TESTDATA_DIR) + "/strategic_merge_cases.jsonl");
    std::string line;
    int cases = 0;
    while (std::getline(in, line)) {
        const Object entry = MustParse(line);
        const std::string name = entry.NestedString({"name"}).Value();
        const PatchSchema* schema =
            FindPatchSchema(entry.NestedMap({"original"}).Value().GetGroupVersionKind().Value());
        ASSERT_NE(schema, nullptr) << name;
        StatusOr<std::string> patch = CreateTwoWayStrategicMergePatch(entry.NestedMap({"original"}).Value(),
                                                                      entry.NestedMap({"modified"}).Value(), *schema);
        ASSERT_TRUE(patch.Ok()) << name << ": " << patch.GetStatus();
        EXPECT_EQ(patch.Value(), entry.NestedString({"patch"}).Value()) << name;
        ++cases;
    }
    EXPECT_EQ(cases, 25);
}

TEST(StrategicMergePatchTest, MatchesGoByteForByteOnRandomEdits) {
    for (const test::GoldenCase& golden : test::ReadGoldenCases("patch_golden.jsonl")) {
        const PatchSchema* schema = FindPatchSchema(golden.original.GetGroupVersionKind().Value());
        ASSERT_NE(schema, nullptr) << golden.kind;
        StatusOr<std::string> patch = CreateTwoWayStrategicMergePatch(golden.original, golden.modified, *schema);
        ASSERT_TRUE(patch.Ok()) << patch.GetStatus();
        EXPECT_EQ(patch.Value(), golden.strategic) << "patch_golden.jsonl:" << golden.line;
    }
}

TEST(StrategicMergePatchTest, AnElementWithoutItsMergeKeyIsBadRequest) {
    StatusOr<std::string> patch = PodPatch(R"({"spec":{"containers":[{"name":"a"}]}})",
                                           R"({"spec":{"containers":[{"name":"a"},{"image":"x"}]}})");
    ASSERT_FALSE(patch.Ok());
    EXPECT_TRUE(IsBadRequest(patch.GetStatus()));
    EXPECT_THAT(patch.GetStatus().Message(), HasSubstr("spec.containers[1] has no merge key \"name\""));
}

TEST(StrategicMergePatchTest, MixedOrNestedListElementsAreBadRequest) {
    StatusOr<std::string> mixed =
        PodPatch(R"({"metadata":{"finalizers":["a"]}})", R"({"metadata":{"finalizers":["a",{"b":1}]}})");
    ASSERT_FALSE(mixed.Ok());
    EXPECT_THAT(mixed.GetStatus().Message(), HasSubstr("metadata.finalizers"));
    StatusOr<std::string> nested =
        PodPatch(R"({"metadata":{"finalizers":["a"]}})", R"({"metadata":{"finalizers":[["a"]]}})");
    ASSERT_FALSE(nested.Ok());
    EXPECT_THAT(nested.GetStatus().Message(), HasSubstr("list of lists"));
}

TEST(StrategicMergePatchTest, OnlyObjectsCanBeDiffed) {
    StatusOr<std::string> patch = CreateTwoWayStrategicMergePatch(MustParse("{}"), MustParse("3"), SchemaOf("", "Pod"));
    ASSERT_FALSE(patch.Ok());
    EXPECT_TRUE(IsBadRequest(patch.GetStatus()));
}

}  // namespace
}  // namespace ctrl::client::internal
