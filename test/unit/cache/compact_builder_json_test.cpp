// A JSON watch event written straight into the store's compact form (CompactBuilder as the
// parser's sink) holds the bytes CompactValue::Encode writes for the Object the same line parses
// into: recorded pods with managedFields kept and dropped, and a custom resource's values (doubles,
// negative and 64-bit integers, nulls, escapes, empty containers). Only ADDED events go to the
// sink; a line only the fallback parser reads (an integer beyond 64 bits) builds its Object; a
// store replacement holds what the sink built.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "ctrl/cache/internal/compact_builder.hpp"
#include "ctrl/cache/internal/compact_value.hpp"
#include "ctrl/cache/store.hpp"
#include "ctrl/rest/internal/watch_event_parser.hpp"
#include "test/unit/protobuf/read_testdata.hpp"

namespace ctrl::cache::internal {
namespace {

using rest::WatchEvent;
using rest::internal::kWatchEventParserPadding;

constexpr std::size_t kFastPathBytes = std::size_t{256} << 10;

// A watch event line with the padding the parser may read past its end.
struct Line {
    explicit Line(std::string_view type, std::string_view object) {
        text = "{\"type\":\"" + std::string(type) + "\",\"object\":" + std::string(object) + "}";
        size = text.size();
        text.append(kWatchEventParserPadding, '\0');
    }
    std::string_view View() const { return {text.data(), size}; }

    std::string text;
    std::size_t size = 0;
};

StatusOr<WatchEvent> Parse(const Line& line, bool drop_managed_fields, rest::WatchObjectSink* sink = nullptr) {
    return rest::internal::ParseWatchEvent(line.View(), 0, kFastPathBytes, drop_managed_fields, sink);
}

std::string BytesOf(const CompactValue& value) {
    return std::string(reinterpret_cast<const char*>(value.Bytes().data()), value.Bytes().size());
}

std::string Recorded(const std::string& name) {
    std::string json = protobuf::test::ReadTestdata(name + ".json");
    while (!json.empty() && (json.back() == '\n' || json.back() == '\r'))
        json.pop_back();
    EXPECT_FALSE(json.empty()) << name;
    return json;
}

// A ServiceMonitor-like custom resource with values of every JSON kind.
constexpr std::string_view kCustom =
    R"({"apiVersion":"monitoring.coreos.com/v1","kind":"ServiceMonitor","metadata":{"name":"sm-0001",)"
    R"("namespace":"vs-1","labels":{"app":"caf\u00e9 \"quoted\""},"managedFields":[{"manager":"probe",)"
    R"("operation":"Update","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{".":{},"f:endpoints":{}}}}]},)"
    R"("spec":{"sampleLimit":18446744073709551615,"targetLimit":-12,"scrapeRatio":0.25,"big":1e300,)"
    R"("endpoints":[{"port":"web","interval":"30s","honorLabels":true,"tlsConfig":null,"relabelings":[]}],)"
    R"("selector":{},"podTargetLabels":["a","b\n"]}})";

// Each object parsed both ways: encoded from its Object, and built by the sink; equal bytes.
void ExpectBuiltAsEncoded(const std::string& object, bool drop_managed_fields) {
    InternTable encode_table;
    InternTable build_table;
    CompactBuilder builder(build_table);
    const Line line("ADDED", object);
    StatusOr<WatchEvent> parsed = Parse(line, drop_managed_fields);
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    StatusOr<WatchEvent> sunk = Parse(line, drop_managed_fields, &builder);
    ASSERT_TRUE(sunk.Ok()) << sunk.GetStatus();
    EXPECT_TRUE(sunk->object_in_sink);
    EXPECT_EQ(sunk->type, WatchEvent::Type::kAdded);
    std::optional<BuiltObject> built = builder.Take();
    ASSERT_TRUE(built.has_value());
    EXPECT_EQ(built->namespace_name, parsed->object.Namespace());
    EXPECT_EQ(built->name, parsed->object.Name());
    EXPECT_EQ(built->value.Decode(build_table).ToJson(), parsed->object.ToJson());
    EXPECT_EQ(BytesOf(built->value), BytesOf(CompactValue::Encode(parsed->object, encode_table)));
}

TEST(CompactBuilderJsonTest, RecordedPodsBuildTheBytesEncodeWritesForTheirObjects) {
    for (const std::string name : {"workload_pod", "rich_pod"}) {
        for (const bool drop : {false, true}) {
            SCOPED_TRACE(name + (drop ? " without managedFields" : " with managedFields"));
            ExpectBuiltAsEncoded(Recorded(name), drop);
        }
    }
}

TEST(CompactBuilderJsonTest, ACustomResourceOfEveryKindOfValueBuildsTheBytesEncodeWrites) {
    for (const bool drop : {false, true}) {
        SCOPED_TRACE(drop ? "without managedFields" : "with managedFields");
        ExpectBuiltAsEncoded(std::string(kCustom), drop);
    }
}

TEST(CompactBuilderJsonTest, TakesOnlyAddedEventsOthersBuildTheirObject) {
    InternTable table;
    CompactBuilder builder(table);
    for (const std::string_view type : {"MODIFIED", "DELETED", "BOOKMARK"}) {
        StatusOr<WatchEvent> event = Parse(Line(type, kCustom), false, &builder);
        ASSERT_TRUE(event.Ok()) << event.GetStatus();
        EXPECT_FALSE(event->object_in_sink) << type;
        EXPECT_EQ(event->object.Name(), "sm-0001") << type;
        EXPECT_FALSE(builder.Take().has_value()) << type;
    }
}

TEST(CompactBuilderJsonTest, ALineOnlyTheFallbackParserReadsBuildsItsObject) {
    InternTable table;
    CompactBuilder builder(table);
    const Line line("ADDED",
                    R"({"metadata":{"name":"huge","namespace":"ns"},"spec":{"n":123456789012345678901234567890}})");
    StatusOr<WatchEvent> event = Parse(line, false, &builder);
    ASSERT_TRUE(event.Ok()) << event.GetStatus();
    EXPECT_FALSE(event->object_in_sink);
    EXPECT_EQ(event->object.Name(), "huge");
    EXPECT_FALSE(builder.Take().has_value());
}

TEST(CompactBuilderJsonTest, AMalformedLineLeavesTheSinkWithNothing) {
    InternTable table;
    CompactBuilder builder(table);
    const Line line("ADDED", R"({"metadata":{"name":"cut")");
    StatusOr<WatchEvent> event = Parse(line, false, &builder);
    ASSERT_FALSE(event.Ok());
    EXPECT_TRUE(IsBadRequest(event.GetStatus())) << event.GetStatus();
    EXPECT_FALSE(builder.Take().has_value());
    ASSERT_TRUE(Parse(Line("ADDED", kCustom), false, &builder).Ok());
    EXPECT_TRUE(builder.Take().has_value());
}

TEST(CompactBuilderJsonTest, TheStoreHoldsWhatTheSinkBuiltFromJson) {
    Store store;  // strips managedFields: the parser drops them
    StoreReplacement replacement = store.BeginReplace();
    ASSERT_NE(replacement.Sink(), nullptr);
    const Line line("ADDED", kCustom);
    ASSERT_TRUE(Parse(line, true, replacement.Sink()).Ok());
    ASSERT_TRUE(replacement.AddFromSink().Ok());
    StatusOr<StoreReplaceResult> replaced = store.Replace(std::move(replacement), "9");
    ASSERT_TRUE(replaced.Ok()) << replaced.GetStatus();
    StatusOr<WatchEvent> expected = Parse(line, true);
    ASSERT_TRUE(expected.Ok());
    const CachedObject held = store.Get("vs-1", "sm-0001");
    ASSERT_TRUE(held);
    EXPECT_EQ(held.Copy().ToJson(), expected->object.ToJson());
    EXPECT_EQ(held.Copy().ToJson().find("managedFields"), std::string::npos);
}

}  // namespace
}  // namespace ctrl::cache::internal
