#include "ctrl/client/internal/json_patch.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/internal/json.hpp"
#include "test/unit/client/random_json.hpp"

namespace ctrl::client::internal {
namespace {

using ctrl::internal::JsonDocument;
using ctrl::internal::JsonValue;

Object MustParse(std::string_view json) {
    StatusOr<Object> parsed = Object::Parse(json);
    EXPECT_TRUE(parsed.Ok()) << parsed.GetStatus() << " in " << json;
    return parsed.Ok() ? std::move(parsed).Value() : Object();
}

std::string Diff(std::string_view original, std::string_view modified) {
    return CreateJsonPatch(MustParse(original), MustParse(modified));
}

// The reference tokens of an RFC 6901 pointer, unescaped.
std::vector<std::string> Tokens(std::string_view pointer) {
    std::vector<std::string> tokens;
    std::size_t at = 0;
    while (at < pointer.size()) {
        const std::size_t end = std::min(pointer.find('/', at + 1), pointer.size());
        std::string token;
        for (std::size_t i = at + 1; i < end; ++i) {
            if (pointer[i] == '~' && i + 1 < end) {
                token.push_back(pointer[i + 1] == '1' ? '/' : '~');
                ++i;
            } else {
                token.push_back(pointer[i]);
            }
        }
        tokens.push_back(std::move(token));
        at = end;
    }
    return tokens;
}

// A small RFC 6902 applier (add, remove, replace, test) that refuses what the RFC refuses: a
// missing parent, a missing member to remove or replace, an index out of range.
Status ApplyJsonPatch(Object& target, std::string_view patch_json) {
    CTRL_ASSIGN_OR_RETURN(Object patch, Object::Parse(patch_json));
    JsonDocument& doc = target.Document();
    for (const JsonValue& operation : patch.Document().Root().GetArray()) {
        const std::string op(ctrl::internal::JsonStringMember(operation, "op"));
        const std::vector<std::string> tokens = Tokens(ctrl::internal::JsonStringMember(operation, "path"));
        const JsonValue* given = ctrl::internal::FindJsonMember(operation, "value");
        JsonValue value;
        if (given != nullptr)
            value.CopyFrom(*given, doc.Allocator());
        if (tokens.empty()) {
            if (op == "test" && doc.Root() != value)
                return ConflictError("test of the root failed");
            if (op != "test")
                doc.Root() = value;
            continue;
        }
        JsonValue* parent = &doc.Root();
        for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
            if (parent->IsObject()) {
                parent = ctrl::internal::FindJsonMember(*parent, tokens[i]);
            } else if (parent->IsArray() && std::stoul(tokens[i]) < parent->Size()) {
                parent = &(*parent)[static_cast<rapidjson::SizeType>(std::stoul(tokens[i]))];
            } else {
                parent = nullptr;
            }
            if (parent == nullptr)
                return NotFoundError("no parent for " + op);
        }
        const std::string& last = tokens.back();
        if (parent->IsObject()) {
            JsonValue* existing = ctrl::internal::FindJsonMember(*parent, last);
            if (op == "add") {
                ctrl::internal::SetJsonMember(*parent, last, value, doc.Allocator());
            } else if (existing == nullptr) {
                return NotFoundError(op + " of a missing member " + last);
            } else if (op == "remove") {
                ctrl::internal::EraseJsonMember(*parent, last);
            } else if (op == "replace") {
                *existing = value;
            } else if (op == "test" && *existing != value) {
                return ConflictError("test failed at " + last);
            }
            continue;
        }
        if (!parent->IsArray())
            return BadRequestError(op + " below a scalar");
        const std::size_t size = parent->Size();
        const std::size_t index = last == "-" ? size : std::stoul(last);
        if (op == "add") {
            if (index > size)
                return NotFoundError("add past the end");
            parent->PushBack(value, doc.Allocator());
            for (std::size_t i = size; i > index; --i)
                (*parent)[static_cast<rapidjson::SizeType>(i)].Swap((*parent)[static_cast<rapidjson::SizeType>(i - 1)]);
            continue;
        }
        if (index >= size)
            return NotFoundError(op + " past the end");
        if (op == "remove")
            parent->Erase(parent->Begin() + static_cast<std::ptrdiff_t>(index));
        else if (op == "replace")
            (*parent)[static_cast<rapidjson::SizeType>(index)] = value;
        else if (op == "test" && (*parent)[static_cast<rapidjson::SizeType>(index)] != value)
            return ConflictError("test failed at index " + last);
    }
    return OkStatus();
}

TEST(JsonPatchTest, EqualObjectsGiveAnEmptyPatch) {
    EXPECT_EQ(Diff(R"({"a":1,"b":{"c":[1,2]}})", R"({"b":{"c":[1,2]},"a":1.0})"), "[]");
}

TEST(JsonPatchTest, MembersAreRemovedReplacedAndAdded) {
    EXPECT_EQ(Diff(R"({"a":1,"b":{"c":"x","d":true},"e":null})", R"({"b":{"c":"y","d":true},"e":null,"f":[1]})"),
              R"([{"op":"remove","path":"/a"},{"op":"replace","path":"/b/c","value":"y"},)"
              R"({"op":"add","path":"/f","value":[1]}])");
}

TEST(JsonPatchTest, ATypeChangeReplacesTheValue) {
    EXPECT_EQ(Diff(R"({"a":{"b":1}})", R"({"a":[1]})"), R"([{"op":"replace","path":"/a","value":[1]}])");
    EXPECT_EQ(Diff(R"({"a":1})", R"({"a":null})"), R"([{"op":"replace","path":"/a","value":null}])");
}

TEST(JsonPatchTest, PointerTokensEscapeTildeAndSlash) {
    EXPECT_EQ(Diff(R"({"a/b":1,"m~n":{"~/":1}})", R"({"a/b":2,"m~n":{"~/":3}})"),
              R"([{"op":"replace","path":"/a~1b","value":2},{"op":"replace","path":"/m~0n/~0~1","value":3}])");
}

TEST(JsonPatchTest, UnicodeAndEscapedStringsSurvive) {
    const std::string patch = Diff(R"({"l":"a"})", R"({"l":"wéb ☃ \"q\" \\ \n","日本":"語"})");
    EXPECT_EQ(patch, R"([{"op":"replace","path":"/l","value":"wéb ☃ \"q\" \\ \n"},)"
                     R"({"op":"add","path":"/日本","value":"語"}])");
}

TEST(JsonPatchTest, ArraysKeepTheirCommonHeadAndTail) {
    // One element removed from the middle: one operation, not a shift of every later element.
    EXPECT_EQ(Diff(R"({"c":[{"n":"a"},{"n":"b"},{"n":"c"}]})", R"({"c":[{"n":"a"},{"n":"c"}]})"),
              R"([{"op":"remove","path":"/c/1"}])");
    EXPECT_EQ(Diff(R"({"c":[1,3]})", R"({"c":[1,2,3]})"), R"([{"op":"add","path":"/c/1","value":2}])");
    EXPECT_EQ(Diff(R"({"c":[1,2]})", R"({"c":[1,2,3,4]})"),
              R"([{"op":"add","path":"/c/2","value":3},{"op":"add","path":"/c/3","value":4}])");
    // The surplus of the original goes from its last element down, so each index is still valid.
    EXPECT_EQ(Diff(R"({"c":[1,2,3,4,5]})", R"({"c":[1,5]})"),
              R"([{"op":"remove","path":"/c/3"},{"op":"remove","path":"/c/2"},{"op":"remove","path":"/c/1"}])");
    EXPECT_EQ(Diff(R"({"c":[{"n":"a","i":1}]})", R"({"c":[{"n":"a","i":2}]})"),
              R"([{"op":"replace","path":"/c/0/i","value":2}])");
}

TEST(JsonPatchTest, TestOfTheResourceVersionComesFirst) {
    const std::string patch = CreateJsonPatch(MustParse(R"({"metadata":{"resourceVersion":"7"},"a":1})"),
                                              MustParse(R"({"metadata":{"resourceVersion":"7"},"a":2})"), "7");
    EXPECT_EQ(patch, R"([{"op":"test","path":"/metadata/resourceVersion","value":"7"},)"
                     R"({"op":"replace","path":"/a","value":2}])");
    EXPECT_EQ(CreateJsonPatch(MustParse("{}"), MustParse("{}"), "7"),
              R"([{"op":"test","path":"/metadata/resourceVersion","value":"7"}])");
}

TEST(JsonPatchTest, TheApplierRefusesWhatTheRfcRefuses) {
    Object target = MustParse(R"({"a":[1]})");
    EXPECT_FALSE(ApplyJsonPatch(target, R"([{"op":"remove","path":"/b"}])").Ok());
    EXPECT_FALSE(ApplyJsonPatch(target, R"([{"op":"add","path":"/a/3","value":1}])").Ok());
    EXPECT_FALSE(ApplyJsonPatch(target, R"([{"op":"test","path":"/a/0","value":2}])").Ok());
    EXPECT_TRUE(ApplyJsonPatch(target, R"([{"op":"add","path":"/a/-","value":2}])").Ok());
    EXPECT_EQ(target.ToJson(), R"({"a":[1,2]})");
}

// Applying the patch to original gives modified, for thousands of random objects and edits.
TEST(JsonPatchTest, ApplyingThePatchToOriginalGivesModified) {
    test::RandomJson random(20240611);
    int operations = 0;
    for (int i = 0; i < 3000; ++i) {
        const Object original = random.Document();
        const Object modified = random.Mutate(original);
        const std::string patch = CreateJsonPatch(original, modified);
        Object patched = original.DeepCopy();
        const Status applied = ApplyJsonPatch(patched, patch);
        ASSERT_TRUE(applied.Ok()) << applied << "\noriginal " << original.ToJson() << "\nmodified " << modified.ToJson()
                                  << "\npatch " << patch;
        ASSERT_TRUE(patched == modified) << "original " << original.ToJson() << "\nmodified " << modified.ToJson()
                                         << "\npatch " << patch << "\ngot " << patched.ToJson();
        if (original == modified) {
            EXPECT_EQ(patch, "[]");
        }
        operations += patch == "[]" ? 0 : 1;
    }
    EXPECT_GT(operations, 2500);  // the edits did change most objects
}

}  // namespace
}  // namespace ctrl::client::internal
