// Hostile bytes: every error is a Status naming where, never a crash; and the recorded bodies of
// a real API server (testdata/) transcode to its JSON.

#include <gtest/gtest.h>

#include <random>

#include "ctrl/core/object.hpp"
#include "ctrl/protobuf/transcode.hpp"
#include "ctrl/protobuf/watch_frames.hpp"
#include "test/unit/protobuf/proto_builder.hpp"
#include "test/unit/protobuf/read_testdata.hpp"

namespace ctrl::protobuf::test {
namespace {

std::string Recorded(const std::string& name) {
    std::string data = ReadTestdata(name);
    EXPECT_FALSE(data.empty()) << name;
    return data;
}

std::string WithoutNewline(std::string text) {
    if (!text.empty() && text.back() == '\n') {
        text.pop_back();
    }
    return text;
}

TEST(RecordedBodiesTest, PodsTranscodeToTheServersJson) {
    for (const std::string name : {"workload_pod", "rich_pod"}) {
        StatusOr<std::string> json = JsonForEnvelope(Recorded(name + ".pb"));
        ASSERT_TRUE(json.Ok()) << json.GetStatus();
        EXPECT_EQ(*json, WithoutNewline(Recorded(name + ".json"))) << name;
    }
}

TEST(RecordedBodiesTest, AWatchStreamInPiecesOfAnySizeTranscodesToTheServersEvents) {
    const std::string stream = Recorded("configmaps_watch.pb");
    const std::string want = Recorded("configmaps_watch.json");
    for (std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{100}, stream.size()}) {
        WatchFrameReader reader;
        std::string got;
        for (std::size_t at = 0; at < stream.size(); at += piece) {
            reader.Append(std::string_view(stream).substr(at, piece));
            while (true) {
                StatusOr<std::optional<std::string_view>> frame = reader.Next();
                ASSERT_TRUE(frame.Ok()) << frame.GetStatus();
                if (!frame->has_value()) {
                    break;
                }
                ASSERT_TRUE(AppendJsonForWatchEvent(**frame, got).Ok());
                got += '\n';
            }
        }
        EXPECT_EQ(reader.Pending(), 0u);
        EXPECT_EQ(got, want) << "pieces of " << piece;
    }
}

TEST(WatchFrameReaderTest, RefusesAFrameLongerThanTheMaximum) {
    WatchFrameReader reader(1024);
    reader.Append(std::string("\x00\x00\x04\x01", 4));
    StatusOr<std::optional<std::string_view>> frame = reader.Next();
    ASSERT_FALSE(frame.Ok());
    EXPECT_EQ(frame.GetStatus().Code(), StatusCode::kBadRequest);
}

TEST(MalformedTest, NotAnEnvelope) {
    StatusOr<std::string> json = JsonForEnvelope(R"({"kind":"Pod"})");
    ASSERT_FALSE(json.Ok());
    EXPECT_EQ(json.GetStatus().Code(), StatusCode::kBadRequest);
}

TEST(MalformedTest, AnUnknownKindIsNoMatch) {
    StatusOr<std::string> json = JsonForEnvelope(Envelope("example.com/v1", "Widget", ProtoBuilder()));
    ASSERT_FALSE(json.Ok());
    EXPECT_EQ(json.GetStatus().Code(), StatusCode::kNoMatch);
    EXPECT_NE(json.GetStatus().Message().find("Widget"), std::string::npos);
}

TEST(MalformedTest, AWrongWireTypeNamesTheTypeAndThePath) {
    ProtoBuilder container;
    container.Bytes(1, "c").Bytes(6, ProtoBuilder().Bytes(3, "not a number").str());  // ports[].containerPort
    ProtoBuilder spec;
    spec.Message(2, container);
    StatusOr<std::string> json = JsonForEnvelope(Envelope("v1", "Pod", ProtoBuilder().Message(2, spec)));
    ASSERT_FALSE(json.Ok());
    EXPECT_EQ(json.GetStatus().Code(), StatusCode::kBadRequest);
    EXPECT_NE(json.GetStatus().Message().find("k8s.io/api/core/v1.Pod at spec.containers.ports.containerPort"),
              std::string::npos)
        << json.GetStatus();
    EXPECT_NE(json.GetStatus().Message().find("field 3"), std::string::npos) << json.GetStatus();
}

TEST(MalformedTest, ALengthBeyondTheEndIsBadRequest) {
    ProtoBuilder pod;
    pod.Append("\x12\x7f\x0a");  // spec: 127 bytes announced, 1 there
    StatusOr<std::string> json = JsonForEnvelope(Envelope("v1", "Pod", pod));
    ASSERT_FALSE(json.Ok());
    EXPECT_EQ(json.GetStatus().Code(), StatusCode::kBadRequest);
}

TEST(MalformedTest, DeepNestingIsRefused) {
    // metav1.Status details -> causes ... no recursion in built-in kinds; nest a RawExtension's
    // envelope in a WatchEvent in a WatchEvent ... instead.
    std::string inner = Envelope("v1", "ConfigMap", ProtoBuilder());
    for (int i = 0; i < 200; ++i) {
        ProtoBuilder event;
        event.Bytes(1, "ADDED").Message(2, ProtoBuilder().Bytes(1, inner));
        inner = Envelope("v1", "WatchEvent", event);
    }
    StatusOr<std::string> json = JsonForEnvelope(inner);
    ASSERT_FALSE(json.Ok());
    EXPECT_EQ(json.GetStatus().Code(), StatusCode::kBadRequest);
}

TEST(MalformedTest, EveryTruncationAndRandomDamageIsAStatusNotACrash) {
    const std::string pod = Recorded("rich_pod.pb");
    int failures = 0;
    for (std::size_t length = 0; length < pod.size(); ++length) {
        failures += JsonForEnvelope(pod.substr(0, length)).Ok() ? 0 : 1;
    }
    EXPECT_GT(failures, 0);
    std::mt19937 random(1234);
    for (int round = 0; round < 3000; ++round) {
        std::string damaged = pod;
        const int flips = 1 + static_cast<int>(random() % 8);
        for (int i = 0; i < flips; ++i) {
            damaged[4 + random() % (damaged.size() - 4)] = static_cast<char>(random());
        }
        StatusOr<std::string> json = JsonForEnvelope(damaged);
        if (json.Ok()) {
            const StatusOr<Object> parsed = Object::Parse(*json);  // what it writes is always JSON
            EXPECT_TRUE(parsed.Ok()) << parsed.GetStatus();
        } else {
            EXPECT_TRUE(json.GetStatus().Code() == StatusCode::kBadRequest ||
                        json.GetStatus().Code() == StatusCode::kNoMatch)
                << json.GetStatus();
        }
    }
}

}  // namespace
}  // namespace ctrl::protobuf::test
