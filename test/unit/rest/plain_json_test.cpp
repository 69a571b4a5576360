// FieldsV1 built in one pass: what it accepts builds the document a JSON parser builds (the API
// server's own FieldsV1 among them), and everything outside its shape is left to the parser.

#include <gtest/gtest.h>

#include <string>

#include "ctrl/core/internal/json.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/rest/internal/plain_json.hpp"
#include "test/unit/protobuf/read_testdata.hpp"

namespace ctrl::rest::internal {
namespace {

using ctrl::internal::JsonDocument;

// json built by EmitPlainJson, written back as text.
std::string Built(std::string_view json) {
    JsonDocument doc;
    std::string scratch;
    bool emitted = false;
    auto generate = [&](JsonDocument::Document& d) { return emitted = EmitPlainJson(json, d, scratch); };
    doc.doc.Populate(generate);
    EXPECT_TRUE(emitted) << json;
    return ctrl::internal::WriteJson(doc.Root());
}

// json parsed by RapidJSON, written back as text.
std::string Parsed(std::string_view json) {
    StatusOr<Object> object = Object::Parse(json);
    EXPECT_TRUE(object.Ok()) << object.GetStatus();
    return object.Ok() ? object->ToJson() : "";
}

TEST(PlainJsonTest, TheServersFieldsV1IsPlainAndBuildsAsParsed) {
    StatusOr<Object> pod = Object::Parse(protobuf::test::ReadTestdata("workload_pod.json"));
    ASSERT_TRUE(pod.Ok()) << pod.GetStatus();
    const auto& managed = pod->Document().Root()["metadata"]["managedFields"];
    ASSERT_GT(managed.Size(), 0u);
    for (const auto& entry : managed.GetArray()) {
        const std::string fields = ctrl::internal::WriteJson(entry["fieldsV1"]);
        EXPECT_TRUE(IsPlainJson(fields)) << fields;
        EXPECT_EQ(Built(fields), Parsed(fields));
    }
}

TEST(PlainJsonTest, EscapesEmptyNamesAndDeepNestingBuildAsParsed) {
    for (const char* json : {R"({})", R"("")", R"("a\"b\\c\/d")", R"({"":{},"k:{\"port\":80,\"p\":\"TCP\"}":{".":{}}})",
                             R"({"a":{"b":{"c":{"d":"e"}}},"a":{}})"}) {
        EXPECT_TRUE(IsPlainJson(json)) << json;
        EXPECT_EQ(Built(json), Parsed(json)) << json;
    }
    std::string deep;
    for (int i = 0; i < 63; ++i)  // 64 objects deep
        deep += "{\"a\":";
    deep += "{}" + std::string(63, '}');
    EXPECT_TRUE(IsPlainJson(deep));
    EXPECT_EQ(Built(deep), Parsed(deep));
}

TEST(PlainJsonTest, AnythingElseIsLeftToTheParser) {
    std::string too_deep;
    for (int i = 0; i < 64; ++i)  // 65 objects deep
        too_deep += "{\"a\":";
    too_deep += "{}" + std::string(64, '}');
    for (const std::string& json : {std::string(),
                                    std::string("{"),
                                    std::string("}"),
                                    std::string(R"({"a":{})"),
                                    std::string(R"({"a":{}}})"),
                                    std::string(R"({"a":{}} )"),
                                    std::string(R"({ "a":{}})"),
                                    std::string(R"({"a" :{}})"),
                                    std::string(R"({"a":1})"),
                                    std::string(R"({"a":[]})"),
                                    std::string(R"({"a":null})"),
                                    std::string(R"({"a\u0041":{}})"),
                                    std::string(R"({"a\n":{}})"),
                                    std::string("{\"caf\xc3\xa9\":{}}"),
                                    std::string("{\"a\tb\":{}}"),
                                    std::string(R"({"a":{},})"),
                                    std::string(R"({,"a":{}})"),
                                    std::string(R"({"a":{}"b":{}})"),
                                    std::string(R"({"a"})"),
                                    std::string(R"("abc)"),
                                    std::string(R"("a\)"),
                                    std::string(R"({"a":{}}{})"),
                                    std::string(R"({"a":"b":"c"})"),
                                    too_deep}) {
        EXPECT_FALSE(IsPlainJson(json)) << json;
    }
}

}  // namespace
}  // namespace ctrl::rest::internal
