// The transcoder on hand-built messages: Go's encoding/json rules (field order, omitempty,
// omitzero, zero values, maps, bytes) and each special type.

#include "ctrl/protobuf/transcode.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test/unit/protobuf/proto_builder.hpp"

namespace ctrl::protobuf::test {
namespace {

std::string Json(const std::string& envelope) {
    StatusOr<std::string> json = JsonForEnvelope(envelope);
    EXPECT_TRUE(json.Ok()) << json.GetStatus();
    return json.Ok() ? *json : std::string();
}

TEST(TranscodeTest, AnEmptyPodIsGosZeroPod) {
    // containers has no omitempty: a nil slice is null; structs are never omitted.
    EXPECT_EQ(Json(Envelope("v1", "Pod", ProtoBuilder())),
              R"({"kind":"Pod","apiVersion":"v1","metadata":{},"spec":{"containers":null},"status":{}})");
}

TEST(TranscodeTest, FieldsFollowGoStructOrderNotFieldNumbers) {
    // ConfigMap: immutable (4) comes before data (2) and binaryData (3) in the Go struct.
    ProtoBuilder cm;
    cm.Entry(3, "bin", std::string("\x00\xff\x10", 3)).Entry(2, "b", "2").Entry(2, "a", "1").Varint(4, 1);
    cm.Message(1, ProtoBuilder().Bytes(1, "cm").Bytes(3, "ns"));
    EXPECT_EQ(Json(Envelope("v1", "ConfigMap", cm)),
              R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm","namespace":"ns"},"immutable":true,)"
              R"("data":{"a":"1","b":"2"},"binaryData":{"bin":"AP8Q"}})");
}

TEST(TranscodeTest, MapsAreSortedAndTheLastEntryOfAKeyWins) {
    ProtoBuilder meta;
    meta.Entry(11, "z", "1").Entry(11, "a", "old").Entry(11, "m", "x").Entry(11, "a", "new");
    EXPECT_EQ(Json(Envelope("v1", "ConfigMap", ProtoBuilder().Message(1, meta))),
              R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"labels":{"a":"new","m":"x","z":"1"}}})");
}

TEST(TranscodeTest, PointersArePresenceAndScalarsOmitTheirZero) {
    // A present pointer to a zero is written; a zero string or number with omitempty is not.
    ProtoBuilder spec;
    spec.Varint(4, 0).Bytes(3, "").Varint(11, 0).Varint(25, static_cast<std::uint64_t>(-5));
    EXPECT_EQ(Json(Envelope("v1", "Pod", ProtoBuilder().Message(2, spec))),
              R"({"kind":"Pod","apiVersion":"v1","metadata":{},"spec":{"containers":null,)"
              R"("terminationGracePeriodSeconds":0,"priority":-5},"status":{}})");
}

TEST(TranscodeTest, RepeatedVarintsMayBePacked) {
    ProtoBuilder packed;
    packed.Append("\x05\x06");  // 5, 6
    ProtoBuilder security;
    security.Varint(4, 1).Bytes(4, packed.str()).Varint(4, 7);
    ProtoBuilder spec;
    spec.Message(14, security);
    EXPECT_EQ(Json(Envelope("v1", "Pod", ProtoBuilder().Message(2, spec))),
              R"({"kind":"Pod","apiVersion":"v1","metadata":{},"spec":{"containers":null,)"
              R"("securityContext":{"supplementalGroups":[1,5,6,7]}},"status":{}})");
}

TEST(TranscodeTest, TimesFollowMetav1) {
    // creationTimestamp is omitzero: zero (empty, or Go's zero instant) is left out; deletionTimestamp
    // is a pointer: present means written. Time drops nanoseconds.
    const ProtoBuilder zero_instant = ProtoBuilder().Varint(1, static_cast<std::uint64_t>(-62135596800));
    ProtoBuilder meta;
    meta.Message(8, zero_instant).Message(9, ProtoBuilder().Varint(1, 1767225600).Varint(2, 999999999));
    EXPECT_EQ(Json(Envelope("v1", "ConfigMap", ProtoBuilder().Message(1, meta))),
              R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"deletionTimestamp":"2026-01-01T00:00:00Z"}})");
    ProtoBuilder created;
    created.Message(8, ProtoBuilder().Varint(1, 951782400));  // a leap day
    EXPECT_EQ(Json(Envelope("v1", "ConfigMap", ProtoBuilder().Message(1, created))),
              R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"creationTimestamp":"2000-02-29T00:00:00Z"}})");
}

TEST(TranscodeTest, MicroTimesKeepMicroseconds) {
    ProtoBuilder spec;
    spec.Message(3, ProtoBuilder().Varint(1, 1767225600).Varint(2, 123456789)).Message(4, ProtoBuilder());
    EXPECT_EQ(Json(Envelope("coordination.k8s.io/v1", "Lease", ProtoBuilder().Message(2, spec))),
              R"({"kind":"Lease","apiVersion":"coordination.k8s.io/v1","metadata":{},"spec":{)"
              R"("acquireTime":"2026-01-01T00:00:00.123456Z","renewTime":null}})");
}

TEST(TranscodeTest, IntOrStringIsANumberOrAString) {
    ProtoBuilder spec;
    spec.Message(1, ProtoBuilder().Varint(1, 1).Bytes(3, "50%")).Message(3, ProtoBuilder().Varint(1, 0).Varint(2, 3));
    EXPECT_EQ(Json(Envelope("policy/v1", "PodDisruptionBudget", ProtoBuilder().Message(2, spec))),
              R"({"kind":"PodDisruptionBudget","apiVersion":"policy/v1","metadata":{},"spec":{)"
              R"("minAvailable":"50%","maxUnavailable":3},"status":{"disruptionsAllowed":0,"currentHealthy":0,)"
              R"("desiredHealthy":0,"expectedPods":0}})");
}

TEST(TranscodeTest, QuantitiesAreTheirStringAndZeroIsZero) {
    ProtoBuilder spec;
    spec.Message(32, ProtoBuilder().Bytes(1, "cpu").Message(2, ProtoBuilder().Bytes(1, "250m")));
    spec.Message(32, ProtoBuilder().Bytes(1, "memory").Message(2, ProtoBuilder()));
    EXPECT_EQ(Json(Envelope("v1", "Pod", ProtoBuilder().Message(2, spec))),
              R"({"kind":"Pod","apiVersion":"v1","metadata":{},"spec":{"containers":null,)"
              R"("overhead":{"cpu":"250m","memory":"0"}},"status":{}})");
}

TEST(TranscodeTest, StringsAreEscapedAsTheServersEncoderDoes) {
    ProtoBuilder meta;
    meta.Bytes(1, std::string("<a&b>\"\\\b\f\n\r\t\x01\x7f caf\xc3\xa9 \xe2\x80\xa8 \xff end"));
    EXPECT_EQ(Json(Envelope("v1", "ConfigMap", ProtoBuilder().Message(1, meta))),
              R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":")"
              R"(\u003ca\u0026b\u003e\"\\\b\f\n\r\t\u0001)"
              "\x7f caf\xc3\xa9 \\u2028 \\ufffd end\"}}");
}

TEST(TranscodeTest, FieldsV1IsItsJsonCompacted) {
    ProtoBuilder entry;
    entry.Bytes(1, "m").Message(
        7, ProtoBuilder().Bytes(1, R"({"f:a": {"f:<b>" : {}},  "v:\"x\"":[1, 2.5e3, true, null]})"));
    EXPECT_EQ(Json(Envelope("v1", "ConfigMap", ProtoBuilder().Message(1, ProtoBuilder().Message(17, entry)))),
              R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"managedFields":[{"manager":"m",)"
              R"("fieldsV1":{"f:a":{"f:\u003cb\u003e":{}},"v:\"x\"":[1,2.5e3,true,null]}}]}})");
}

TEST(TranscodeTest, ListsSayEmptyItemsAsAnEmptyArray) {
    ProtoBuilder list;
    list.Message(1, ProtoBuilder().Bytes(2, "42"));
    EXPECT_EQ(Json(Envelope("v1", "PodList", list)),
              R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"42"},"items":[]})");
}

// A field from a newer server would be lost (Go's decoder skips it; the server's JSON has it): refused,
// so the reader falls back to JSON instead of caching less than the server sent.
TEST(TranscodeTest, UnknownFieldsAreRefusedNamingFieldAndMessage) {
    ProtoBuilder meta;
    meta.Bytes(1, "n").Bytes(99, "future");
    StatusOr<std::string> json = JsonForEnvelope(Envelope("v1", "ConfigMap", ProtoBuilder().Message(1, meta)));
    ASSERT_FALSE(json.Ok());
    EXPECT_TRUE(IsBadRequest(json.GetStatus())) << json.GetStatus();
    EXPECT_THAT(json.GetStatus().Message(), ::testing::HasSubstr("protobuf field 99 of"));
    EXPECT_THAT(json.GetStatus().Message(), ::testing::HasSubstr("ObjectMeta"));
    EXPECT_THAT(json.GetStatus().Message(), ::testing::HasSubstr("read this kind as JSON"));
}

TEST(TranscodeTest, RepeatedMessageFieldsMerge) {
    // Two occurrences of a singular message field are one message (protobuf's merge).
    ProtoBuilder cm;
    cm.Message(1, ProtoBuilder().Bytes(1, "a")).Message(1, ProtoBuilder().Bytes(3, "ns"));
    EXPECT_EQ(Json(Envelope("v1", "ConfigMap", cm)),
              R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"ns"}})");
}

TEST(TranscodeTest, WatchEventsCarryTheirObject) {
    ProtoBuilder event;
    event.Bytes(1, "DELETED").Message(2, ProtoBuilder().Bytes(1, Envelope("v1", "ConfigMap", ProtoBuilder())));
    std::string json;
    ASSERT_TRUE(AppendJsonForWatchEvent(event.str(), json).Ok());
    EXPECT_EQ(json, R"({"type":"DELETED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{}}})");
}

// A store that strips managedFields asks the transcoder not to write them: only the event object's
// own go; a pod template's metadata keeps its (an object's content, not its bookkeeping).
TEST(TranscodeTest, WatchEventsCanLeaveTheObjectsManagedFieldsOut) {
    ProtoBuilder template_meta;
    template_meta.Message(17, ProtoBuilder().Bytes(1, "t"));
    ProtoBuilder meta;
    meta.Bytes(1, "d").Message(17, ProtoBuilder().Bytes(1, "m")).Message(17, ProtoBuilder().Bytes(1, "n"));
    ProtoBuilder deployment;
    deployment.Message(1, meta).Message(2, ProtoBuilder().Message(3, ProtoBuilder().Message(1, template_meta)));
    ProtoBuilder event;
    event.Bytes(1, "ADDED").Message(2, ProtoBuilder().Bytes(1, Envelope("apps/v1", "Deployment", deployment)));

    std::string full;
    ASSERT_TRUE(AppendJsonForWatchEvent(event.str(), full).Ok());
    std::string dropped;
    ASSERT_TRUE(AppendJsonForWatchEvent(event.str(), dropped, /*drop_managed_fields=*/true).Ok());

    const std::string own = R"(,"managedFields":[{"manager":"m"},{"manager":"n"}])";
    const std::size_t at = full.find(own);
    ASSERT_NE(at, std::string::npos) << full;
    EXPECT_EQ(dropped, full.substr(0, at) + full.substr(at + own.size()));
    EXPECT_THAT(dropped, ::testing::HasSubstr(R"("metadata":{"name":"d"},)"));
    EXPECT_THAT(dropped, ::testing::HasSubstr(R"("managedFields":[{"manager":"t"}])"));
}

TEST(TranscodeTest, KnowsEveryBuiltinKindAndNoCustomOne) {
    for (const auto& [api_version, kind] :
         std::vector<std::pair<std::string, std::string>>{{"v1", "Pod"},
                                                          {"v1", "Status"},
                                                          {"apps/v1", "Deployment"},
                                                          {"batch/v1", "JobList"},
                                                          {"coordination.k8s.io/v1", "Lease"},
                                                          {"rbac.authorization.k8s.io/v1", "ClusterRole"},
                                                          {"discovery.k8s.io/v1", "EndpointSlice"},
                                                          {"networking.k8s.io/v1", "Ingress"},
                                                          {"policy/v1", "PodDisruptionBudget"},
                                                          {"events.k8s.io/v1", "Event"}}) {
        EXPECT_TRUE(HasBuiltinSchema(api_version, kind)) << api_version << " " << kind;
    }
    EXPECT_FALSE(HasBuiltinSchema("vpcresources.k8s.aws/v1beta1", "SecurityGroupPolicy"));
    EXPECT_FALSE(HasBuiltinSchema("v1", "NoSuchKind"));
}

}  // namespace
}  // namespace ctrl::protobuf::test
