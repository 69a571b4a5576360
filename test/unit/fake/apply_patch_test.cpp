// The fake's patch appliers: applying the patches Go computed (test/unit/client/testdata, made by
// apimachinery) to the original gives the modified object, and the directives and JSON patch
// operations the server knows work one by one.
#include "ctrl/fake/internal/apply_patch.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "ctrl/client/internal/strategic_merge_schema.hpp"
#include "ctrl/core/internal/json.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::fake::internal {
namespace {

Object Parse(std::string_view json) {
    StatusOr<Object> object = Object::Parse(json);
    EXPECT_TRUE(object.Ok()) << object.GetStatus();
    return object.Ok() ? std::move(object).Value() : Object();
}

Object Field(const Object& line, std::string_view name) {
    StatusOr<Object> field = line.NestedMap({name});
    EXPECT_TRUE(field.Ok()) << name;
    return field.Ok() ? std::move(field).Value() : Object();
}

// value without its null members, at any depth: what a patch can make of an object that has them
// (a null in a patch removes the member).
void StripNulls(ctrl::internal::JsonValue& value) {
    if (value.IsArray()) {
        for (ctrl::internal::JsonValue& element : value.GetArray())
            StripNulls(element);
        return;
    }
    if (!value.IsObject())
        return;
    for (auto it = value.MemberBegin(); it != value.MemberEnd();) {
        if (it->value.IsNull()) {
            it = value.EraseMember(it);
        } else {
            StripNulls(it->value);
            ++it;
        }
    }
}

Object WithoutNulls(const Object& object) {
    Object copy = object.DeepCopy();
    StripNulls(copy.Document().Root());
    return copy;
}

const client::internal::PatchSchema& PodSchema() {
    const GroupVersionKind pod{"", "v1", "Pod"};
    return *client::internal::FindPatchSchema(pod);
}

// Every line of a golden file: original, modified, and the patches Go computed between them.
std::vector<Object> Lines(const std::string& file) {
    std::ifstream in(::ctrl::testing::RepoPath(CTRL_CLIENT_TESTDATA_DIR) + "/" + file);
    EXPECT_TRUE(in.good()) << file;
    std::vector<Object> lines;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty())
            lines.push_back(Parse(line));
    }
    return lines;
}

TEST(ApplyPatchTest, GoStrategicAndMergePatchesTurnTheOriginalIntoTheModified) {
    int applied = 0;
    for (const Object& line : Lines("patch_golden.jsonl")) {
        const Object original = Field(line, "original");
        const Object modified = WithoutNulls(Field(line, "modified"));
        StatusOr<GroupVersionKind> gvk = original.GetGroupVersionKind();
        ASSERT_TRUE(gvk.Ok());
        const client::internal::PatchSchema* schema = client::internal::FindPatchSchema(*gvk);
        ASSERT_NE(schema, nullptr) << gvk->String();

        Object by_strategic = original.DeepCopy();
        ASSERT_TRUE(ApplyStrategicMergePatch(by_strategic, line.NestedString({"strategic"}).ValueOr(""), *schema).Ok());
        EXPECT_EQ(by_strategic, modified) << "strategic " << line.NestedString({"strategic"}).ValueOr("") << "\n"
                                          << by_strategic.ToJson() << "\n"
                                          << modified.ToJson();
        Object by_merge = original.DeepCopy();
        ASSERT_TRUE(ApplyMergePatch(by_merge, line.NestedString({"merge"}).ValueOr("")).Ok());
        EXPECT_EQ(WithoutNulls(by_merge), modified) << "merge " << line.NestedString({"merge"}).ValueOr("");
        ++applied;
    }
    EXPECT_GT(applied, 50);
}

TEST(ApplyPatchTest, GoNamedStrategicCasesApply) {
    for (const Object& line : Lines("strategic_merge_cases.jsonl")) {
        const Object original = Field(line, "original");
        const Object modified = WithoutNulls(Field(line, "modified"));
        StatusOr<std::string> patch = line.NestedString({"patch"});
        if (!patch.Ok())
            continue;  // a case whose patch Go refused
        StatusOr<GroupVersionKind> gvk = original.GetGroupVersionKind();
        ASSERT_TRUE(gvk.Ok());
        const client::internal::PatchSchema* schema = client::internal::FindPatchSchema(*gvk);
        ASSERT_NE(schema, nullptr);
        Object patched = original.DeepCopy();
        ASSERT_TRUE(ApplyStrategicMergePatch(patched, *patch, *schema).Ok());
        EXPECT_EQ(patched, modified) << line.NestedString({"name"}).ValueOr("") << ": " << *patch << "\n"
                                     << patched.ToJson();
    }
}

TEST(ApplyPatchTest, StrategicDirectivesDeleteReplaceAndRetain) {
    Object pod = Parse(R"({"metadata":{"finalizers":["a","b","c"]},"spec":{"containers":[
        {"name":"app","image":"x","env":[{"name":"A","value":"1"}]},{"name":"side","image":"y"}],
        "volumes":[{"name":"v","emptyDir":{}}]}})");
    const std::string patch = R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]},
        "spec":{"$setElementOrder/containers":[{"name":"side"},{"name":"app"}],
                "containers":[{"name":"app","$patch":"delete"}],
                "volumes":[{"name":"v","configMap":{"name":"cm"},"$retainKeys":["configMap","name"]}]}})";
    ASSERT_TRUE(ApplyStrategicMergePatch(pod, patch, PodSchema()).Ok());
    EXPECT_EQ(pod, Parse(R"({"metadata":{"finalizers":["a","c"]},"spec":{"containers":[{"name":"side","image":"y"}],
        "volumes":[{"name":"v","configMap":{"name":"cm"}}]}})"))
        << pod.ToJson();

    ASSERT_TRUE(ApplyStrategicMergePatch(pod, R"({"spec":{"$patch":"replace","nodeName":"n"}})", PodSchema()).Ok());
    EXPECT_EQ(pod, Parse(R"({"metadata":{"finalizers":["a","c"]},"spec":{"nodeName":"n"}})")) << pod.ToJson();
    EXPECT_TRUE(IsBadRequest(ApplyStrategicMergePatch(pod, "[1]", PodSchema())));
}

TEST(ApplyPatchTest, MergePatchRemovesNullsAndReplacesLists) {
    Object object = Parse(R"({"a":{"b":1,"c":[1,2]},"d":"x"})");
    ASSERT_TRUE(ApplyMergePatch(object, R"({"a":{"b":null,"c":[3],"e":{"f":null,"g":1}},"d":null})").Ok());
    EXPECT_EQ(object, Parse(R"({"a":{"c":[3],"e":{"g":1}}})")) << object.ToJson();
    EXPECT_TRUE(IsBadRequest(ApplyMergePatch(object, "{")));
    EXPECT_EQ(object, Parse(R"({"a":{"c":[3],"e":{"g":1}}})")) << "unchanged on failure";
}

TEST(ApplyPatchTest, JsonPatchOperationsApplyInOrderOrNotAtAll) {
    Object object = Parse(R"({"a":[1,2,3],"b":{"c~/":1}})");
    ASSERT_TRUE(ApplyJsonPatch(object, R"([{"op":"add","path":"/a/1","value":9},{"op":"remove","path":"/a/0"},
        {"op":"replace","path":"/b/c~0~1","value":2},{"op":"move","from":"/a/2","path":"/z"},
        {"op":"copy","from":"/z","path":"/a/-"},{"op":"test","path":"/a","value":[9,2,3]}])")
                    .Ok());
    EXPECT_EQ(object, Parse(R"({"a":[9,2,3],"b":{"c~/":2},"z":3})")) << object.ToJson();

    const Status failed =
        ApplyJsonPatch(object, R"([{"op":"add","path":"/q","value":1},{"op":"test","path":"/z","value":4}])");
    EXPECT_TRUE(IsInvalid(failed)) << failed;
    EXPECT_EQ(failed.HttpCode(), 422);
    EXPECT_FALSE(object.HasNestedField({"q"})) << "no operation applies when one fails";
    EXPECT_TRUE(IsInvalid(ApplyJsonPatch(object, R"([{"op":"remove","path":"/nope"}])")));
    EXPECT_TRUE(IsInvalid(ApplyJsonPatch(object, R"([{"op":"replace","path":"/nope","value":1}])")));
    EXPECT_TRUE(IsInvalid(ApplyJsonPatch(object, R"([{"op":"add","path":"/a/7","value":1}])")));
    EXPECT_TRUE(IsBadRequest(ApplyJsonPatch(object, R"({"op":"add"})")));
    EXPECT_TRUE(IsBadRequest(ApplyJsonPatch(object, R"([{"op":"frobnicate","path":"/a"}])")));
}

}  // namespace
}  // namespace ctrl::fake::internal
