// A protobuf watch event built straight into its Object (no JSON text between) equals the event
// the transcoder's JSON text parses into: recorded pods with managedFields kept and dropped, map
// keys and strings with invalid UTF-8, FieldsV1 that simdjson refuses; and an event without a
// known type or an object is a BadRequest naming the offset.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "ctrl/protobuf/transcode.hpp"
#include "ctrl/rest/internal/protobuf_watch_event.hpp"
#include "ctrl/rest/internal/watch_event_parser.hpp"
#include "test/unit/protobuf/proto_builder.hpp"
#include "test/unit/protobuf/read_testdata.hpp"

namespace ctrl::rest::internal {
namespace {

using protobuf::test::Envelope;
using protobuf::test::ProtoBuilder;
using ::testing::HasSubstr;

constexpr std::uint64_t kOffset = 4096;

std::string ReadTestdata(const std::string& name) {
    std::string data = protobuf::test::ReadTestdata(name);
    EXPECT_FALSE(data.empty()) << name;
    return data;
}

// metav1.WatchEvent{type = 1, object = 2 (runtime.RawExtension{raw = 1})}.
std::string Event(std::string_view type, const std::string& envelope) {
    return ProtoBuilder().Bytes(1, type).Message(2, ProtoBuilder().Bytes(1, envelope)).str();
}

// The event as the transcoder's text parses: "TYPE <object JSON>".
std::string ThroughText(const std::string& event, bool drop_managed_fields) {
    std::string text;
    const Status transcoded = protobuf::AppendJsonForWatchEvent(event, text, drop_managed_fields);
    EXPECT_TRUE(transcoded.Ok()) << transcoded;
    text.append(kWatchEventParserPadding, '\0');
    StatusOr<WatchEvent> parsed = ParseWatchEvent(std::string_view(text.data(), text.size() - kWatchEventParserPadding),
                                                  kOffset, 1 << 20, drop_managed_fields);
    EXPECT_TRUE(parsed.Ok()) << parsed.GetStatus();
    return parsed.Ok() ? std::string(WatchEventTypeName(parsed->type)) + " " + parsed->object.ToJson() : "";
}

std::string Direct(const std::string& event, bool drop_managed_fields) {
    StatusOr<WatchEvent> decoded = DecodeProtobufWatchEvent(event, kOffset, drop_managed_fields);
    EXPECT_TRUE(decoded.Ok()) << decoded.GetStatus();
    return decoded.Ok() ? std::string(WatchEventTypeName(decoded->type)) + " " + decoded->object.ToJson() : "";
}

// A ConfigMap with a label, data and one managedFields entry holding `fields_v1`.
std::string ConfigMapEnvelope(std::string_view label_key, std::string_view value, std::string_view fields_v1) {
    const ProtoBuilder managed = ProtoBuilder()
                                     .Bytes(1, "kubectl")
                                     .Bytes(2, "Update")
                                     .Bytes(3, "v1")
                                     .Bytes(6, "FieldsV1")
                                     .Message(7, ProtoBuilder().Bytes(1, fields_v1));
    const ProtoBuilder metadata = ProtoBuilder()
                                      .Bytes(1, "settings")
                                      .Bytes(3, "default")
                                      .Bytes(6, "42")
                                      .Entry(11, label_key, value)
                                      .Message(17, managed);
    return Envelope("v1", "ConfigMap", ProtoBuilder().Message(1, metadata).Entry(2, "key", value));
}

TEST(ProtobufWatchEventTest, RecordedPodsBuildTheObjectTheirTextParsesInto) {
    for (const std::string name : {"workload_pod", "rich_pod"}) {
        for (const bool drop : {false, true}) {
            for (const std::string_view type : {"ADDED", "MODIFIED", "DELETED"}) {
                const std::string event = Event(type, ReadTestdata(name + ".pb"));
                const std::string direct = Direct(event, drop);
                EXPECT_EQ(direct, ThroughText(event, drop)) << name << (drop ? " dropped" : " kept");
                EXPECT_EQ(direct.find("managedFields") == std::string::npos, drop) << name;
            }
        }
    }
}

TEST(ProtobufWatchEventTest, InvalidUtf8InKeysAndStringsBecomesTheReplacementCharacterAsInText) {
    const std::string event =
        Event("ADDED", ConfigMapEnvelope("app\xff", "caf\xc3\xa9 \xe2\x82 end\x80", R"({"f:data":{".":{}}})"));
    const std::string direct = Direct(event, false);
    EXPECT_EQ(direct, ThroughText(event, false));
    EXPECT_THAT(direct, HasSubstr("\"app\xEF\xBF\xBD\""));
    EXPECT_THAT(direct, HasSubstr("caf\xc3\xa9 \xEF\xBF\xBD\xEF\xBF\xBD end\xEF\xBF\xBD"));
}

TEST(ProtobufWatchEventTest, AMapEntryWithoutAKeyAndAbsentStringsBuildAsInText) {
    // data: an entry with a value and no key; ownerReferences[0]: only a uid (kind, name and
    // apiVersion are written as "" when absent).
    const ProtoBuilder metadata = ProtoBuilder().Bytes(1, "settings").Message(13, ProtoBuilder().Bytes(4, "u1"));
    const ProtoBuilder configmap =
        ProtoBuilder().Message(1, metadata).Message(2, ProtoBuilder().Bytes(2, "value without a key"));
    const std::string event = Event("ADDED", Envelope("v1", "ConfigMap", configmap));
    const std::string direct = Direct(event, false);
    EXPECT_EQ(direct, ThroughText(event, false));
    EXPECT_THAT(direct, HasSubstr(R"("data":{"":"value without a key"})"));
    EXPECT_THAT(direct, HasSubstr(R"("kind":"","name":"","uid":"u1")"));
}

TEST(ProtobufWatchEventTest, FieldsV1ThatSimdjsonRefusesIsReadAsTheTextPathReadsIt) {
    // An integer beyond 64 bits: simdjson refuses it, RapidJSON reads it as a double.
    const std::string event = Event("MODIFIED", ConfigMapEnvelope("app", "web", R"({"f:n":123456789012345678901234})"));
    const std::string direct = Direct(event, false);
    EXPECT_EQ(direct, ThroughText(event, false));
    EXPECT_THAT(direct, HasSubstr("\"f:n\":1.23456789012345"));
}

TEST(ProtobufWatchEventTest, MalformedFieldsV1IsBadRequestNamingTheFieldAndOffset) {
    const std::string event = Event("ADDED", ConfigMapEnvelope("app", "web", R"({"f:data":)"));
    StatusOr<WatchEvent> decoded = DecodeProtobufWatchEvent(event, kOffset, false);
    EXPECT_TRUE(IsBadRequest(decoded.GetStatus())) << decoded.GetStatus();
    EXPECT_THAT(decoded.GetStatus().Message(), HasSubstr("protobuf watch event at byte offset 4096"));
    EXPECT_THAT(decoded.GetStatus().Message(), HasSubstr("FieldsV1 holds malformed JSON"));
    // Left out with managedFields, it is not read at all.
    EXPECT_TRUE(DecodeProtobufWatchEvent(event, kOffset, true).Ok());
}

TEST(ProtobufWatchEventTest, AnEventWithoutAKnownTypeOrAnObjectIsBadRequest) {
    const std::string configmap = ConfigMapEnvelope("app", "web", "{}");
    const struct {
        std::string event;
        std::string error;
    } cases[] = {
        {Event("RESIZED", configmap), "unknown event type \"RESIZED\""},
        {ProtoBuilder().Message(2, ProtoBuilder().Bytes(1, configmap)).str(), "unknown event type \"\""},
        {ProtoBuilder().Bytes(1, "ADDED").str(), "no \"object\" JSON object"},
        {ProtoBuilder().Bytes(1, "ADDED").Message(2, ProtoBuilder().Bytes(1, "[1,2]")).str(),
         "no \"object\" JSON object"},
    };
    for (const auto& c : cases) {
        StatusOr<WatchEvent> decoded = DecodeProtobufWatchEvent(c.event, kOffset, false);
        EXPECT_TRUE(IsBadRequest(decoded.GetStatus())) << c.error << ": " << decoded.GetStatus();
        EXPECT_THAT(decoded.GetStatus().Message(), HasSubstr("malformed watch event at byte offset 4096: " + c.error));
    }
}

TEST(ProtobufWatchEventTest, AnObjectHeldAsJsonIsBuiltAsTheTextPathBuildsIt) {
    const std::string event =
        ProtoBuilder().Bytes(1, "ADDED").Message(2, ProtoBuilder().Bytes(1, R"({"kind":"Widget","n":[1,"x"]})")).str();
    const std::string direct = Direct(event, false);
    EXPECT_EQ(direct, ThroughText(event, false));
    EXPECT_EQ(direct, R"(ADDED {"kind":"Widget","n":[1,"x"]})");
}

}  // namespace
}  // namespace ctrl::rest::internal
