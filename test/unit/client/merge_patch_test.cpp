#include "ctrl/client/internal/merge_patch.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "ctrl/core/internal/json.hpp"
#include "test/unit/client/golden.hpp"
#include "test/unit/client/random_json.hpp"

namespace ctrl::client::internal {
namespace {

using ctrl::internal::JsonValue;
using ctrl::internal::PoolAllocator;

Object MustParse(std::string_view json) {
    StatusOr<Object> parsed = Object::Parse(json);
    EXPECT_TRUE(parsed.Ok()) << parsed.GetStatus() << " in " << json;
    return parsed.Ok() ? std::move(parsed).Value() : Object();
}

std::string Diff(std::string_view original, std::string_view modified) {
    StatusOr<std::string> patch = CreateMergePatch(MustParse(original), MustParse(modified));
    EXPECT_TRUE(patch.Ok()) << patch.GetStatus();
    return patch.Ok() ? patch.Value() : "";
}

// RFC 7386 MergePatch(target, patch).
void ApplyMergePatch(JsonValue& target, const JsonValue& patch, PoolAllocator& allocator) {
    if (!patch.IsObject()) {
        target.CopyFrom(patch, allocator);
        return;
    }
    if (!target.IsObject())
        target.SetObject();
    for (auto it = patch.MemberBegin(); it != patch.MemberEnd(); ++it) {
        const std::string_view name = ctrl::internal::JsonView(it->name);
        if (it->value.IsNull()) {
            ctrl::internal::EraseJsonMember(target, name);
            continue;
        }
        JsonValue* existing = ctrl::internal::FindJsonMember(target, name);
        if (existing == nullptr) {
            JsonValue empty;
            ctrl::internal::SetJsonMember(target, name, empty, allocator);
            existing = ctrl::internal::FindJsonMember(target, name);
        }
        ApplyMergePatch(*existing, it->value, allocator);
    }
}

// What a merge patch can express: null members of objects are dropped (arrays are sent whole, so
// nulls inside them stay).
void DropNullMembers(JsonValue& value) {
    if (!value.IsObject())
        return;
    for (auto it = value.MemberBegin(); it != value.MemberEnd();) {
        if (it->value.IsNull()) {
            it = value.EraseMember(it);
        } else {
            DropNullMembers(it->value);
            ++it;
        }
    }
}

TEST(MergePatchTest, EqualObjectsGiveAnEmptyPatch) {
    EXPECT_EQ(Diff(R"({"a":1,"b":{"c":[1,{"d":null}]}})", R"({"b":{"c":[1,{"d":null}]},"a":1})"), "{}");
}

TEST(MergePatchTest, NestedChangesCarryOnlyWhatChanged) {
    EXPECT_EQ(Diff(R"({"metadata":{"name":"a","labels":{"x":"1","y":"2"}},"spec":{"replicas":1}})",
                   R"({"metadata":{"name":"a","labels":{"x":"1","y":"3"}},"spec":{"replicas":1}})"),
              R"({"metadata":{"labels":{"y":"3"}}})");
}

TEST(MergePatchTest, RemovedMembersAreNull) {
    EXPECT_EQ(Diff(R"({"a":1,"b":{"c":1,"d":2},"z":{"y":1}})", R"({"b":{"d":2}})"),
              R"({"a":null,"b":{"c":null},"z":null})");
}

TEST(MergePatchTest, ArraysAreSentWhole) {
    EXPECT_EQ(
        Diff(R"({"c":[{"name":"a","image":"x"},{"name":"b"}]})", R"({"c":[{"name":"a","image":"y"},{"name":"b"}]})"),
        R"({"c":[{"image":"y","name":"a"},{"name":"b"}]})");
    EXPECT_EQ(Diff(R"({"f":["a","b"]})", R"({"f":["b","a"]})"), R"({"f":["b","a"]})");
}

TEST(MergePatchTest, TypeChangesAndAddedObjectsAreSentWhole) {
    EXPECT_EQ(Diff(R"({"a":{"b":1},"c":"s"})", R"({"a":"x","c":{"d":{"e":1}}})"), R"({"a":"x","c":{"d":{"e":1}}})");
    EXPECT_EQ(Diff(R"({"a":null})", R"({"a":{"b":1}})"), R"({"a":{"b":1}})");
}

TEST(MergePatchTest, MembersAreWrittenInByteOrderWithUnicodeAndEscapes) {
    EXPECT_EQ(Diff(R"({"b":1})", R"({"é":"☃","b":2,"$x":"q\"\\\n","A":1})"), R"({"$x":"q\"\\\n","A":1,"b":2,"é":"☃"})");
}

TEST(MergePatchTest, ANullInModifiedRemovesTheMember) {
    // RFC 7386 cannot set a null: the patch deletes the member instead.
    EXPECT_EQ(Diff(R"({"a":1})", R"({"a":null})"), R"({"a":null})");
}

TEST(MergePatchTest, OnlyObjectsCanBeDiffed) {
    StatusOr<std::string> patch = CreateMergePatch(MustParse("[1]"), MustParse("{}"));
    ASSERT_FALSE(patch.Ok());
    EXPECT_TRUE(IsBadRequest(patch.GetStatus())) << patch.GetStatus();
}

TEST(MergePatchTest, MatchesGoByteForByte) {
    for (const test::GoldenCase& golden : test::ReadGoldenCases("patch_golden.jsonl")) {
        StatusOr<std::string> patch = CreateMergePatch(golden.original, golden.modified);
        ASSERT_TRUE(patch.Ok()) << patch.GetStatus();
        EXPECT_EQ(patch.Value(), golden.merge) << "patch_golden.jsonl:" << golden.line;
    }
}

// Applying the patch to original gives modified, less the null members a merge patch cannot set.
TEST(MergePatchTest, ApplyingThePatchToOriginalGivesModified) {
    test::RandomJson random(7386);
    for (int i = 0; i < 3000; ++i) {
        const Object original = random.Document();
        Object modified = random.Mutate(original);
        StatusOr<std::string> patch = CreateMergePatch(original, modified);
        ASSERT_TRUE(patch.Ok()) << patch.GetStatus();
        StatusOr<Object> parsed = Object::Parse(patch.Value());
        ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus() << " in " << patch.Value();
        Object patched = original.DeepCopy();
        ApplyMergePatch(patched.Document().Root(), parsed.Value().Document().Root(), patched.Document().Allocator());
        DropNullMembers(patched.Document().Root());
        DropNullMembers(modified.Document().Root());
        ASSERT_TRUE(patched == modified) << "original " << original.ToJson() << "\nmodified " << modified.ToJson()
                                         << "\npatch " << patch.Value() << "\ngot " << patched.ToJson();
    }
}

}  // namespace
}  // namespace ctrl::client::internal
