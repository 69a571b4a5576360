// The watch decoder on a protobuf watch stream (issue 19): frames recorded from kube-apiserver
// v1.37.2 decode, fed whole or split at every byte, into the same events as the JSON watch the
// server sent for them; a cut frame, an oversized frame and broken bytes are errors naming the
// offset; managedFields can be left out as with JSON.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ctrl/protobuf/watch_frames.hpp"
#include "ctrl/rest/watch_decoder.hpp"
#include "test/unit/protobuf/read_testdata.hpp"

namespace ctrl::rest {
namespace {

using ::testing::HasSubstr;

std::string ReadTestdata(const std::string& name) {
    std::string data = protobuf::test::ReadTestdata(name);
    EXPECT_FALSE(data.empty()) << name;
    return data;
}

WatchDecoderOptions Protobuf() {
    WatchDecoderOptions options;
    options.protobuf = true;
    return options;
}

// Every event of a stream fed in pieces of at most `piece` bytes: "TYPE <object JSON>".
StatusOr<std::vector<std::string>> Decode(const std::string& stream, WatchDecoderOptions options, std::size_t piece) {
    WatchDecoder decoder(options);
    std::vector<std::string> out;
    auto drain = [&]() -> Status {
        while (true) {
            auto event = decoder.Next();
            if (!event.Ok())
                return event.GetStatus();
            if (!event->has_value())
                return OkStatus();
            out.push_back(std::string(WatchEventTypeName((*event)->type)) + " " + (*event)->object.ToJson());
        }
    };
    for (std::size_t at = 0; at < stream.size(); at += piece) {
        CTRL_RETURN_IF_ERROR(decoder.Feed(std::string_view(stream).substr(at, piece)));
        CTRL_RETURN_IF_ERROR(drain());
    }
    decoder.Finish();
    CTRL_RETURN_IF_ERROR(drain());
    return out;
}

// The JSON watch's events, as Decode shows them.
std::vector<std::string> JsonEvents(WatchDecoderOptions options = {}) {
    StatusOr<std::vector<std::string>> events = Decode(ReadTestdata("configmaps_watch.json"), options, 1 << 20);
    EXPECT_TRUE(events.Ok()) << events.GetStatus();
    return events.Ok() ? *events : std::vector<std::string>();
}

TEST(ProtobufWatchDecoderTest, FramesDecodeAsTheJsonWatchOfTheSameEventsWholeOrSplitAnywhere) {
    const std::string stream = ReadTestdata("configmaps_watch.pb");
    const std::vector<std::string> want = JsonEvents();
    ASSERT_EQ(want.size(), 2u);
    for (std::size_t piece = 1; piece <= stream.size(); piece = piece < 8 ? piece + 1 : piece * 3) {
        StatusOr<std::vector<std::string>> got = Decode(stream, Protobuf(), piece);
        ASSERT_TRUE(got.Ok()) << "pieces of " << piece << ": " << got.GetStatus();
        EXPECT_EQ(*got, want) << "pieces of " << piece;
    }
}

TEST(ProtobufWatchDecoderTest, DropManagedFieldsWorksAsForJson) {
    WatchDecoderOptions options = Protobuf();
    options.drop_managed_fields = true;
    StatusOr<std::vector<std::string>> got = Decode(ReadTestdata("configmaps_watch.pb"), options, 1 << 20);
    ASSERT_TRUE(got.Ok()) << got.GetStatus();
    WatchDecoderOptions json;
    json.drop_managed_fields = true;
    EXPECT_EQ(*got, JsonEvents(json));
    EXPECT_THAT((*got)[0], ::testing::Not(HasSubstr("managedFields")));
}

TEST(ProtobufWatchDecoderTest, ACutFrameIsUnavailableAndAnOversizedOneBadRequest) {
    const std::string stream = ReadTestdata("configmaps_watch.pb");
    StatusOr<std::vector<std::string>> cut = Decode(stream.substr(0, stream.size() - 3), Protobuf(), 1 << 20);
    EXPECT_TRUE(IsUnavailable(cut.GetStatus())) << cut.GetStatus();
    EXPECT_THAT(cut.GetStatus().Message(), HasSubstr("unfinished frame"));

    WatchDecoderOptions small = Protobuf();
    small.max_event_bytes = 100;
    StatusOr<std::vector<std::string>> big = Decode(stream, small, 1 << 20);
    EXPECT_TRUE(IsBadRequest(big.GetStatus())) << big.GetStatus();
    EXPECT_THAT(big.GetStatus().Message(), HasSubstr("byte offset 0"));
}

TEST(ProtobufWatchDecoderTest, BrokenBytesAreBadRequestNamingTheOffset) {
    std::string stream = ReadTestdata("configmaps_watch.pb");
    const std::string frame_length = stream.substr(0, protobuf::kFrameLengthBytes);
    // A second frame of the same length, all 0xff: no protobuf message.
    const std::size_t length = protobuf::FrameLength(frame_length);
    const std::string broken = frame_length + std::string(length, '\xff');
    StatusOr<std::vector<std::string>> got = Decode(broken, Protobuf(), 1 << 20);
    EXPECT_TRUE(IsBadRequest(got.GetStatus())) << got.GetStatus();
    EXPECT_THAT(got.GetStatus().Message(), HasSubstr("protobuf watch event at byte offset 0"));
}

}  // namespace
}  // namespace ctrl::rest
