#include "ctrl/rest/watch_decoder.hpp"
#include "test/support/read_file.hpp"
#include "test/support/repo_path.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

namespace ctrl::rest {
namespace {

using ::testing::HasSubstr;
using Type = WatchEvent::Type;

std::string ReadTestdata(const std::string& name) {
    return ::ctrl::testing::ReadFile(::ctrl::testing::RepoPath(CTRL_TESTDATA_DIR) + "/" + name);
}

// An event reduced to what two decodings must agree on.
struct Decoded {
    Type type;
    std::string json;
    bool operator==(const Decoded&) const = default;
};

// Reads every event Next has; the first error ends it.
Status Drain(WatchDecoder& decoder, std::vector<Decoded>& out) {
    while (true) {
        auto event = decoder.Next();
        if (!event.Ok())
            return event.GetStatus();
        if (!event->has_value())
            return OkStatus();
        out.push_back({(*event)->type, (*event)->object.ToJson()});
    }
}

// Decodes a stream fed in the given chunks, draining after each.
StatusOr<std::vector<Decoded>> DecodeChunks(const std::vector<std::string_view>& chunks,
                                            WatchDecoderOptions options = {}) {
    WatchDecoder decoder(options);
    std::vector<Decoded> out;
    for (std::string_view chunk : chunks) {
        CTRL_RETURN_IF_ERROR(decoder.Feed(chunk));
        CTRL_RETURN_IF_ERROR(Drain(decoder, out));
    }
    decoder.Finish();
    CTRL_RETURN_IF_ERROR(Drain(decoder, out));
    return out;
}

StatusOr<std::vector<Decoded>> DecodeAll(std::string_view stream, WatchDecoderOptions options = {}) {
    return DecodeChunks({stream}, options);
}

// The first event of a one-line stream, or the decoder's error.
StatusOr<WatchEvent> DecodeOne(std::string_view line, WatchDecoderOptions options = {}) {
    WatchDecoder decoder(options);
    CTRL_RETURN_IF_ERROR(decoder.Feed(line));
    decoder.Finish();
    auto event = decoder.Next();
    if (!event.Ok())
        return event.GetStatus();
    if (!event->has_value())
        return NotFoundError("no event");
    return std::move(**event);
}

WatchDecoderOptions Options(std::size_t max_event_bytes, std::size_t fast_path_max_event_bytes) {
    WatchDecoderOptions options;
    options.max_event_bytes = max_event_bytes;
    options.fast_path_max_event_bytes = fast_path_max_event_bytes;
    return options;
}

const WatchDecoderOptions kRapidJsonOnly = Options(WatchDecoderOptions().max_event_bytes, 0);

TEST(WatchDecoderTest, DecodesEveryTypeOfARecordedStream) {
    WatchDecoder decoder;
    ASSERT_TRUE(decoder.Feed(ReadTestdata("watch_events.ndjson")).Ok());
    std::vector<WatchEvent> events;
    while (true) {
        auto event = decoder.Next();
        ASSERT_TRUE(event.Ok()) << event.GetStatus();
        if (!event->has_value())
            break;
        events.push_back(std::move(**event));
    }
    ASSERT_EQ(events.size(), 6u);
    EXPECT_EQ(events[0].type, Type::kAdded);
    EXPECT_EQ(events[0].object.Kind(), "ConfigMap");
    EXPECT_EQ(events[0].object.Name(), "greetings");
    EXPECT_EQ(*events[0].object.NestedString({"data", "fr"}), "d\xC3\xA9j\xC3\xA0 vu");
    EXPECT_EQ(*events[0].object.NestedString({"data", "ja"}),
              "\xE3\x81\x93\xE3\x82\x93\xE3\x81\xAB\xE3\x81\xA1\xE3\x81\xAF");
    EXPECT_EQ(*events[0].object.NestedString({"data", "escaped"}), "\xC3\xA9\xF0\x9F\x9A\x80<html>");
    EXPECT_EQ(*events[0].object.NestedString({"data", "rocket"}), "\xF0\x9F\x9A\x80 \xE2\x80\xA8 \"quoted\" \\ back");
    EXPECT_TRUE(events[0].object.HasManagedFields());
    EXPECT_EQ(events[1].type, Type::kAdded);
    EXPECT_EQ(events[2].type, Type::kModified);
    EXPECT_EQ(events[2].object.ResourceVersion(), "1207");
    EXPECT_EQ(*events[2].object.NestedString({"status", "podIP"}), "10.244.1.7");
    EXPECT_EQ(events[3].type, Type::kBookmark);
    EXPECT_EQ(events[3].object.Kind(), "Pod");
    EXPECT_EQ(events[3].object.ResourceVersion(), "1210");
    EXPECT_EQ(events[3].object.Name(), "");
    EXPECT_EQ(events[3].object.Annotation("k8s.io/initial-events-end"), "true");
    EXPECT_EQ(events[4].type, Type::kDeleted);
    EXPECT_EQ(events[4].object.DeletionTimestamp(), "2026-03-14T09:30:00Z");
    EXPECT_EQ(events[5].type, Type::kError);
    EXPECT_EQ(events[5].object.Kind(), "Status");
    EXPECT_EQ(decoder.BytesFed(), ReadTestdata("watch_events.ndjson").size());
}

TEST(WatchDecoderTest, BothParsersDecodeTheRecordedStreamIdentically) {
    const std::string stream = ReadTestdata("watch_events.ndjson");
    auto fast = DecodeAll(stream);
    auto slow = DecodeAll(stream, kRapidJsonOnly);
    ASSERT_TRUE(fast.Ok()) << fast.GetStatus();
    ASSERT_TRUE(slow.Ok()) << slow.GetStatus();
    EXPECT_EQ(*fast, *slow);
    // The object is the root, not the event wrapper.
    EXPECT_EQ((*fast)[5].json,
              R"json({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)json"
              R"json("message":"too old resource version: 1201 (1215)","reason":"Expired","code":410})json");
}

// Issue 19: a cache that strips managedFields has the stream leave them out; both parsers agree, and
// nothing else of the object (nor a member named managedFields elsewhere) is touched.
TEST(WatchDecoderTest, DropManagedFieldsLeavesOutOnlyMetadataManagedFieldsOnBothParsers) {
    const std::string line =
        R"({"type":"ADDED","object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","managedFields":)"
        R"([{"manager":"kubectl","fieldsV1":{"f:spec":{}}}],"labels":{"x":"y"}},"spec":{"managedFields":1}}})";
    for (WatchDecoderOptions options : {WatchDecoderOptions{}, kRapidJsonOnly}) {
        options.drop_managed_fields = true;
        StatusOr<WatchEvent> event = DecodeOne(line, options);
        ASSERT_TRUE(event.Ok()) << event.GetStatus();
        EXPECT_EQ(
            event->object.ToJson(),
            R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","labels":{"x":"y"}},"spec":{"managedFields":1}})");
        options.drop_managed_fields = false;
        StatusOr<WatchEvent> kept = DecodeOne(line, options);
        ASSERT_TRUE(kept.Ok()) << kept.GetStatus();
        EXPECT_TRUE(kept->object.HasManagedFields());
    }
}

TEST(WatchDecoderTest, ASplitAtEveryBytePositionDecodesIdentically) {
    const std::string stream = ReadTestdata("watch_events.ndjson");
    auto whole = DecodeAll(stream);
    ASSERT_TRUE(whole.Ok()) << whole.GetStatus();
    ASSERT_EQ(whole->size(), 6u);
    const std::string_view view = stream;
    for (std::size_t split = 0; split <= stream.size(); ++split) {
        auto parts = DecodeChunks({view.substr(0, split), view.substr(split)});
        ASSERT_TRUE(parts.Ok()) << "split at " << split << ": " << parts.GetStatus();
        ASSERT_EQ(*parts, *whole) << "split at " << split;
    }
}

TEST(WatchDecoderTest, OneByteAtATimeDecodesIdentically) {
    const std::string stream = ReadTestdata("watch_events.ndjson");
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < stream.size(); ++i)
        bytes.push_back(std::string_view(stream).substr(i, 1));
    auto whole = DecodeAll(stream);
    auto one_by_one = DecodeChunks(bytes);
    ASSERT_TRUE(one_by_one.Ok()) << one_by_one.GetStatus();
    EXPECT_EQ(*one_by_one, *whole);
}

TEST(WatchDecoderTest, ToleratesEmptyLinesAndCrlf) {
    const std::string lf = R"({"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a"}}})"
                           "\n"
                           R"({"type":"DELETED","object":{"kind":"Pod","metadata":{"name":"a"}}})"
                           "\n";
    const std::string crlf =
        "\n\r\n  \t\n"
        R"({"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a"}}})"
        "\r\n\r\n"
        R"({"type":"DELETED","object":{"kind":"Pod","metadata":{"name":"a"}}})"
        "\r\n \r\n";
    auto expected = DecodeAll(lf);
    ASSERT_TRUE(expected.Ok()) << expected.GetStatus();
    ASSERT_EQ(expected->size(), 2u);
    auto tolerant = DecodeAll(crlf);
    ASSERT_TRUE(tolerant.Ok()) << tolerant.GetStatus();
    EXPECT_EQ(*tolerant, *expected);
    auto slow = DecodeAll(crlf, kRapidJsonOnly);
    ASSERT_TRUE(slow.Ok()) << slow.GetStatus();
    EXPECT_EQ(*slow, *expected);
}

std::string BigConfigMapEvent(std::size_t value_bytes) {
    std::string value;
    value.reserve(value_bytes);
    for (std::size_t i = 0; value.size() < value_bytes; ++i)
        value += i % 97 == 0 ? "\xC3\xA9" : std::string(1, static_cast<char>('a' + i % 26));
    return R"({"type":"MODIFIED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"big",)"
           R"("resourceVersion":"7"},"data":{"blob":")" +
           value + "\"}}}\n";
}

TEST(WatchDecoderTest, DecodesAFiveMegabyteEventFedInBlocks) {
    const std::string event = BigConfigMapEvent(5 << 20);
    const std::string stream = event + R"({"type":"DELETED","object":{"metadata":{"name":"x"}}})"
                                       "\n";
    std::vector<std::string_view> blocks;
    for (std::size_t i = 0; i < stream.size(); i += 65536)
        blocks.push_back(std::string_view(stream).substr(i, 65536));
    for (const WatchDecoderOptions& options :
         {WatchDecoderOptions{}, Options(WatchDecoderOptions().max_event_bytes, std::size_t{8} << 20)}) {
        auto decoded = DecodeChunks(blocks, options);
        ASSERT_TRUE(decoded.Ok()) << decoded.GetStatus();
        ASSERT_EQ(decoded->size(), 2u);
        EXPECT_EQ((*decoded)[0].type, Type::kModified);
        auto object = Object::Parse((*decoded)[0].json);
        ASSERT_TRUE(object.Ok());
        EXPECT_GE(object->NestedString({"data", "blob"})->size(), std::size_t{5} << 20);
        EXPECT_EQ((*decoded)[1].type, Type::kDeleted);
    }
}

TEST(WatchDecoderTest, AnEventOverTheLimitIsBadRequestNamingTheLimit) {
    const WatchDecoderOptions options = Options(1000, WatchDecoderOptions().fast_path_max_event_bytes);
    const std::string prefix = R"({"type":"ADDED","object":{"metadata":{"name":"a"}}})"
                               "\n";
    const std::string big = R"({"type":"ADDED","object":{"data":")" + std::string(1500, 'x') + "\"}}\n";

    // Arriving in pieces: refused once the unfinished event passes the limit, before its newline.
    WatchDecoder decoder(options);
    ASSERT_TRUE(decoder.Feed(prefix).Ok());
    Status status;
    std::size_t fed = 0;
    while (status.Ok() && fed < big.size() - 1) {
        status = decoder.Feed(std::string_view(big).substr(fed, 100));
        fed += 100;
    }
    EXPECT_TRUE(IsBadRequest(status)) << status;
    EXPECT_LT(fed, big.size() - 1);
    EXPECT_THAT(status.Message(), HasSubstr("1000 bytes"));
    EXPECT_THAT(status.Message(), HasSubstr("max_event_bytes"));
    EXPECT_THAT(status.Message(), HasSubstr("byte offset " + std::to_string(prefix.size())));
    // Sticky, even for the complete event fed before.
    EXPECT_EQ(decoder.Next().GetStatus(), status);
    EXPECT_EQ(decoder.Feed("\n"), status);

    // Arriving whole in one chunk.
    auto whole = DecodeAll(prefix + big, options);
    ASSERT_FALSE(whole.Ok());
    EXPECT_TRUE(IsBadRequest(whole.GetStatus()));
    EXPECT_THAT(whole.GetStatus().Message(), HasSubstr("larger than the limit of 1000 bytes"));

    // Exactly at the limit is fine.
    std::string at_limit = R"({"type":"ADDED","object":{"data":")";
    at_limit += std::string(1000 - at_limit.size() - 3, 'y') + "\"}}";
    ASSERT_EQ(at_limit.size(), 1000u);
    EXPECT_TRUE(DecodeAll(at_limit + "\n", options).Ok());
}

TEST(WatchDecoderTest, ABlankLineOverTheLimitIsRefusedFedWholeOrInPieces) {
    // Found by the fuzzer: fed whole, a blank line over the limit was skipped; in pieces it was refused.
    const WatchDecoderOptions options = Options(16, WatchDecoderOptions().fast_path_max_event_bytes);
    const std::string body = std::string(40, ' ') + "\n{\"type\":";
    const auto whole = DecodeAll(body, options);
    ASSERT_FALSE(whole.Ok());
    EXPECT_TRUE(IsBadRequest(whole.GetStatus())) << whole.GetStatus();
    EXPECT_THAT(whole.GetStatus().Message(), HasSubstr("byte offset 0 is larger than the limit of 16 bytes"));

    std::vector<std::string_view> pieces;
    for (std::size_t at = 0; at < body.size(); at += 5)
        pieces.push_back(std::string_view(body).substr(at, 5));
    const auto in_pieces = DecodeChunks(pieces, options);
    ASSERT_FALSE(in_pieces.Ok());
    EXPECT_EQ(in_pieces.GetStatus(), whole.GetStatus());
}

TEST(WatchDecoderTest, MalformedJsonNamesTheStreamOffsetAndASnippet) {
    const std::string good = R"({"type":"ADDED","object":{"metadata":{"name":"a"}}})"
                             "\n";
    const std::string bad = R"({"type":"MODIFIED","object":{"metadata":{"name":"a",,"x":1}}})"
                            "\n";
    const std::size_t error_at = good.size() + bad.find(",,") + 1;
    for (const WatchDecoderOptions& options : {WatchDecoderOptions{}, kRapidJsonOnly}) {
        WatchDecoder decoder(options);
        ASSERT_TRUE(decoder.Feed(good + bad + good).Ok());
        auto first = decoder.Next();
        ASSERT_TRUE(first.Ok() && first->has_value());
        auto second = decoder.Next();
        ASSERT_FALSE(second.Ok());
        const Status& status = second.GetStatus();
        EXPECT_TRUE(IsBadRequest(status));
        EXPECT_THAT(status.Message(), HasSubstr("byte offset " + std::to_string(error_at) + ":"));
        EXPECT_THAT(status.Message(), HasSubstr("Missing a name for object member"));
        EXPECT_THAT(status.Message(), HasSubstr(R"(near "{\"metadata\":{\"name\":\"***\",,\"x\":1}}}")"));
        EXPECT_EQ(decoder.Next().GetStatus(), status);
    }
}

// Issue 17, part 4: the snippet of a malformed event never shows a string value — a watch of Secrets
// carries their data (base64) in strings — even when the error is right next to it or the window
// starts inside it; member names and punctuation still locate the error.
TEST(WatchDecoderTest, AMalformedEventsSnippetHidesStringValues) {
    const std::string value = "c2VjcmV0LXBhc3N3b3JkLTEyMzQ1";  // base64 of a password
    const std::vector<std::string> lines = {
        R"({"type":"MODIFIED","object":{"kind":"Secret","data":{"password":")" + value + R"(",,"x":1}}})",
        R"({"type":"MODIFIED","object":{"kind":"Secret","data":{"password":")" + value + value + R"("}x}})",
        R"({"type":"MODIFIED","object":{"kind":"Secret","data":{"password" : ")" + value + R"("\" ]}}})",
        R"({"type":"MODIFIED","object":{"kind":"Secret","data":{"password":")" + value,  // cut off
    };
    for (const std::string& line : lines) {
        for (const WatchDecoderOptions& options : {WatchDecoderOptions{}, kRapidJsonOnly}) {
            auto event = DecodeOne(line + "\n", options);
            ASSERT_FALSE(event.Ok()) << line;
            const std::string message = event.GetStatus().Message();
            for (std::size_t at = 0; at + 8 <= value.size(); ++at)
                ASSERT_EQ(message.find(value.substr(at, 8)), std::string::npos)
                    << "a piece of the value in: " << message;
            EXPECT_THAT(message, HasSubstr("***")) << message;
        }
    }
    auto event = DecodeOne(lines[0] + "\n");
    EXPECT_THAT(event.GetStatus().Message(), HasSubstr(R"(near "***\",,\"x\":1}}}")"));
}

TEST(WatchDecoderTest, EventsThatAreNotWatchEventsAreBadRequest) {
    const std::pair<std::string, std::string> cases[] = {
        {R"({"type":"UPSERTED","object":{}})", R"(unknown event type "UPSERTED")"},
        {R"({"object":{"kind":"Pod"}})", R"(no "type" string)"},
        {R"({"type":7,"object":{}})", R"(no "type" string)"},
        {R"({"type":"ADDED"})", R"(no "object" JSON object)"},
        {R"({"type":"ADDED","object":"pod"})", R"(no "object" JSON object)"},
        {R"({"type":"ADDED","object":null})", R"(no "object" JSON object)"},
        {R"(["ADDED",{}])", "not a JSON object"},
        {"\"ADDED\"", "not a JSON object"},
        {"{\"type\":\"ADDED\",\"object\":{\"name\":\"\xff\"}}", "Invalid encoding in string"},
        {R"({"type":"ADDED","object":{}} trailing)", "root must not be followed by other values"},
    };
    for (const auto& [line, problem] : cases) {
        for (const WatchDecoderOptions& options : {WatchDecoderOptions{}, kRapidJsonOnly}) {
            auto event = DecodeOne("\n" + line + "\n", options);
            ASSERT_FALSE(event.Ok()) << line;
            EXPECT_TRUE(IsBadRequest(event.GetStatus())) << line;
            EXPECT_THAT(event.GetStatus().Message(), HasSubstr(problem)) << line;
            EXPECT_THAT(event.GetStatus().Message(), HasSubstr("byte offset ")) << line;
        }
    }
}

TEST(WatchDecoderTest, NumbersReadTheSameOnBothPaths) {
    const std::string line =
        R"({"type":"ADDED","object":{"min":-9223372036854775808,"max":9223372036854775807,)"
        R"("umax":18446744073709551615,"small":-1,"zero":0,"neg0":-0,"one":1.0,"tenth":0.1,"tiny":2.5e-8,)"
        R"("huge":1e300,"list":[1,-2,3.5,true,false,null,"\u0000"]}})"
        "\n";
    auto fast = DecodeOne(line);
    auto slow = DecodeOne(line, kRapidJsonOnly);
    ASSERT_TRUE(fast.Ok()) << fast.GetStatus();
    ASSERT_TRUE(slow.Ok()) << slow.GetStatus();
    EXPECT_EQ(fast->object.ToJson(), slow->object.ToJson());
    EXPECT_EQ(*fast->object.NestedInt({"min"}), INT64_MIN);
    EXPECT_EQ(*fast->object.NestedInt({"max"}), INT64_MAX);
    EXPECT_EQ(*fast->object.NestedFloat({"tenth"}), 0.1);
    EXPECT_EQ(*fast->object.NestedFloat({"tiny"}), 2.5e-8);
    EXPECT_TRUE(IsBadRequest(fast->object.NestedInt({"one"}).GetStatus()));

    // Beyond 64 bits: simdjson refuses, RapidJSON reads a double, as Object::Parse does.
    const std::string bigint = R"({"type":"ADDED","object":{"n":18446744073709551616}})";
    auto big = DecodeOne(bigint);
    ASSERT_TRUE(big.Ok()) << big.GetStatus();
    EXPECT_EQ(*big->object.NestedFloat({"n"}), 18446744073709551616.0);
}

TEST(WatchDecoderTest, SurrogateEscapesReadTheSameOnBothPaths) {
    // A pair is one character; a lone half (found by the fuzzer: a lone low half was kept as bytes
    // that are not UTF-8) is refused on both paths.
    const std::string pair = R"({"type":"ADDED","object":{"s":"\ud83d\ude00"}})";
    for (const WatchDecoderOptions& options : {WatchDecoderOptions{}, kRapidJsonOnly}) {
        auto decoded = DecodeOne(pair, options);
        ASSERT_TRUE(decoded.Ok()) << decoded.GetStatus();
        EXPECT_EQ(*decoded->object.NestedString({"s"}), "\xf0\x9f\x98\x80");
        for (const std::string lone : {R"(\ude00)", R"(\ud83d)", R"(\ud83dx)", R"(\udfff\ud83d)"}) {
            auto refused = DecodeOne(R"({"type":"ADDED","object":{"s":")" + lone + "\"}}\n", options);
            ASSERT_FALSE(refused.Ok()) << lone;
            EXPECT_TRUE(IsBadRequest(refused.GetStatus())) << refused.GetStatus();
        }
    }
}

TEST(WatchDecoderTest, NestingDeeperThanTheLimitIsBadRequestOnBothPaths) {
    auto nested = [](int depth) {
        return R"({"type":"ADDED","object":{"a":)" + std::string(depth - 3, '[') + "{}" + std::string(depth - 3, ']') +
               "}}";
    };
    // The wrapper counts: Object::Parse's limit of 1000 levels applies to the line.
    for (int depth : {998, 999, 1000, 1001, 1002, 5000}) {
        auto fast = DecodeOne(nested(depth) + "\n");
        auto slow = DecodeOne(nested(depth) + "\n", kRapidJsonOnly);
        EXPECT_EQ(fast.Ok(), slow.Ok()) << depth;
        EXPECT_EQ(fast.Ok(), depth <= 1000) << depth << ": " << fast.GetStatus();
        if (!fast.Ok()) {
            EXPECT_THAT(fast.GetStatus().Message(), HasSubstr("nested deeper than 1000 levels"));
        }
    }
}

TEST(WatchDecoderTest, MemoryDoesNotGrowWithTheStreamAndShrinksAfterALargeEvent) {
    const std::string small =
        R"({"type":"MODIFIED","object":{"kind":"Pod","metadata":{"name":"p","resourceVersion":"1"},)"
        R"("status":{"phase":"Running","podIP":"10.0.0.1"}}})"
        "\n";
    WatchDecoder decoder;
    std::vector<Decoded> out;
    auto feed_in_blocks = [&](const std::string& stream) {
        for (std::size_t i = 0; i < stream.size(); i += 65536) {
            const std::size_t size = std::min<std::size_t>(65536, stream.size() - i);
            std::span<char> room = decoder.Prepare(size);
            ASSERT_EQ(room.size(), size);
            std::copy_n(stream.data() + i, size, room.data());
            ASSERT_TRUE(decoder.Commit(size).Ok());
            ASSERT_TRUE(Drain(decoder, out).Ok());
            ASSERT_LE(decoder.BufferCapacity(), std::size_t{3} << 20) << "after " << decoder.BytesFed() << " bytes";
        }
    };
    std::string many;
    for (int i = 0; i < 20000; ++i)
        many += small;
    feed_in_blocks(many);
    EXPECT_EQ(out.size(), 20000u);
    EXPECT_LE(decoder.BufferCapacity(), std::size_t{256} << 10);

    feed_in_blocks(BigConfigMapEvent(std::size_t{1} << 20));
    EXPECT_EQ(out.size(), 20001u);
    feed_in_blocks(many);
    EXPECT_EQ(out.size(), 40001u);
    EXPECT_LE(decoder.BufferCapacity(), std::size_t{256} << 10);
    EXPECT_EQ(decoder.BufferedBytes(), 0u);
    EXPECT_EQ(decoder.BytesFed(), 2 * many.size() + BigConfigMapEvent(std::size_t{1} << 20).size());
}

TEST(WatchDecoderTest, CommittingMoreThanPreparedIsInternal) {
    WatchDecoder decoder;
    (void)decoder.Prepare(10);
    EXPECT_TRUE(IsInternal(decoder.Commit(std::size_t{1} << 30)));
}

TEST(WatchDecoderTest, FinishDecodesALastEventWithoutItsNewline) {
    const std::string line = R"({"type":"ADDED","object":{"metadata":{"name":"last"}}})";
    WatchDecoder decoder;
    ASSERT_TRUE(decoder.Feed(line).Ok());
    auto none = decoder.Next();
    ASSERT_TRUE(none.Ok());
    EXPECT_FALSE(none->has_value());
    decoder.Finish();
    auto last = decoder.Next();
    ASSERT_TRUE(last.Ok()) << last.GetStatus();
    ASSERT_TRUE(last->has_value());
    EXPECT_EQ((*last)->object.Name(), "last");
    auto end = decoder.Next();
    ASSERT_TRUE(end.Ok());
    EXPECT_FALSE(end->has_value());
    EXPECT_TRUE(IsInternal(decoder.Feed("{}")));
}

TEST(WatchDecoderTest, FinishInsideAnEventIsUnavailable) {
    const std::string stream = R"({"type":"ADDED","object":{"metadata":{"name":"a"}}})"
                               "\n"
                               R"({"type":"ADDED","object":{"metadata":{"na)";
    WatchDecoder decoder;
    ASSERT_TRUE(decoder.Feed(stream).Ok());
    decoder.Finish();
    auto first = decoder.Next();
    ASSERT_TRUE(first.Ok() && first->has_value());
    auto cut = decoder.Next();
    ASSERT_FALSE(cut.Ok());
    EXPECT_TRUE(IsUnavailable(cut.GetStatus())) << cut.GetStatus();
    EXPECT_THAT(cut.GetStatus().Message(),
                HasSubstr("watch stream ended mid-event after " + std::to_string(stream.size()) + " bytes"));

    WatchDecoder blank;
    ASSERT_TRUE(blank.Feed("\r\n  ").Ok());
    blank.Finish();
    auto end = blank.Next();
    ASSERT_TRUE(end.Ok());
    EXPECT_FALSE(end->has_value());
}

}  // namespace
}  // namespace ctrl::rest
