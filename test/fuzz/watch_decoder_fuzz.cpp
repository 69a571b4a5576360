// The watch stream decoder: a body fed in chunks of sizes the input chooses gives exactly the events
// (or the error) that the same body fed whole gives, on the fast path (simdjson), on RapidJSON alone
// and with the store's sink taking ADDED objects (decoded back from their compact form); an error is
// BadRequest or, at the end of a body cut mid-event, Unavailable; the buffer does not grow beyond the
// unread bytes.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/cache/internal/compact_builder.hpp"
#include "ctrl/rest/watch_decoder.hpp"
#include "test/fuzz/fuzz_input.hpp"

namespace ctrl::fuzz {
namespace {

// What a decoder made of a body: each event as "TYPE <json>", then the error if any.
struct Decoded {
    std::vector<std::string> events;
    std::optional<Status> error;
};

// The store's sink and its table, when a decode writes ADDED objects into the compact form.
struct CompactSink {
    cache::internal::InternTable table;
    cache::internal::CompactBuilder builder{table};
};

// An event as Describe shows it: "TYPE <json>", the JSON decoded back from the sink when it took it.
std::string Shown(const rest::WatchEvent& event, CompactSink* sink, std::string_view body) {
    const std::string type(rest::WatchEventTypeName(event.type));
    if (!event.object_in_sink)
        return type + " " + event.object.ToJson();
    std::optional<cache::internal::BuiltObject> built = sink == nullptr ? std::nullopt : sink->builder.Take();
    if (!built)
        PropertyFailed("an event says its object is in the sink, which holds none", std::string(body));
    return type + " " + built->value.Decode(sink->table).ToJson();
}

// Reads every complete event; false when the decoder failed (the error is recorded).
bool Drain(rest::WatchDecoder& decoder, Decoded& out, CompactSink* sink, std::string_view body) {
    while (true) {
        StatusOr<std::optional<rest::WatchEvent>> next = decoder.Next(sink == nullptr ? nullptr : &sink->builder);
        if (!next.Ok()) {
            out.error = next.GetStatus();
            return false;
        }
        if (!next.Value())
            return true;
        const rest::WatchEvent& event = *next.Value();
        if (event.type == rest::WatchEvent::Type::kError)
            (void)rest::StatusFromWatchEvent(event);
        out.events.push_back(Shown(event, sink, body));
    }
}

Decoded Decode(std::string_view body, const std::vector<std::size_t>& chunk_sizes, rest::WatchDecoderOptions options,
               CompactSink* sink = nullptr) {
    rest::WatchDecoder decoder(options);
    Decoded out;
    std::size_t at = 0;
    std::size_t chunk = 0;
    while (at < body.size()) {
        const std::size_t size =
            std::min(body.size() - at, chunk_sizes.empty() ? body.size() : chunk_sizes[chunk++ % chunk_sizes.size()]);
        const Status fed = decoder.Feed(body.substr(at, size));
        at += size;
        if (!fed.Ok()) {
            out.error = fed;
            return out;
        }
        if (!Drain(decoder, out, sink, body))
            return out;
        if (decoder.BufferedBytes() > options.max_event_bytes + size + 1)
            PropertyFailed("the decoder holds more than one unfinished event", std::string(body));
    }
    decoder.Finish();
    Drain(decoder, out, sink, body);
    return out;
}

std::string Describe(const Decoded& decoded) {
    std::string text;
    for (const std::string& event : decoded.events)
        text += event + "\n";
    if (decoded.error)
        text += "error: " + decoded.error->ToString() + "\n";
    return text;
}

}  // namespace
}  // namespace ctrl::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ctrl;
    fuzz::FuzzInput input(data, size);
    // Up to 4 chunk sizes of 1..64 bytes, then a small event limit half the time.
    std::vector<std::size_t> chunk_sizes;
    const std::uint8_t chunk_count = input.TakeByte() % 5;
    for (std::uint8_t i = 0; i < chunk_count; ++i)
        chunk_sizes.push_back(1 + input.TakeByte() % 64);
    rest::WatchDecoderOptions options;
    if (input.TakeByte() % 2 == 1)
        options.max_event_bytes = 64 + input.TakeByte();
    const std::string_view body = input.TakeRest();

    const fuzz::Decoded whole = fuzz::Decode(body, {}, options);
    if (whole.error && whole.error->Code() != StatusCode::kBadRequest &&
        whole.error->Code() != StatusCode::kUnavailable)
        fuzz::PropertyFailed("a decoder error that is neither BadRequest nor Unavailable", whole.error->ToString());
    const fuzz::Decoded chunked = fuzz::Decode(body, chunk_sizes, options);
    rest::WatchDecoderOptions slow = options;
    slow.fast_path_max_event_bytes = 0;
    const fuzz::Decoded rapidjson_only = fuzz::Decode(body, chunk_sizes, slow);
    fuzz::CompactSink sink;
    const fuzz::Decoded sunk = fuzz::Decode(body, chunk_sizes, options, &sink);
    const std::string expected = fuzz::Describe(whole);
    // The events must agree exactly; errors agree in kind (their texts name offsets and snippets,
    // which may differ between the two parsers).
    // Fed whole, a body whose last unfinished event is over the limit fails at Feed, before the
    // complete events ahead of it are read; fed in chunks, they are read first. So with an error,
    // one side's events are a prefix of the other's.
    const auto same = [](const fuzz::Decoded& a, const fuzz::Decoded& b) {
        if (a.error.has_value() != b.error.has_value())
            return false;
        if (!a.error)
            return a.events == b.events;
        const std::vector<std::string>& shorter = a.events.size() <= b.events.size() ? a.events : b.events;
        const std::vector<std::string>& longer = a.events.size() <= b.events.size() ? b.events : a.events;
        return a.error->Code() == b.error->Code() && std::equal(shorter.begin(), shorter.end(), longer.begin());
    };
    if (!same(whole, chunked))
        fuzz::PropertyFailed("chunked decoding differs from whole",
                             expected + "--- chunked:\n" + fuzz::Describe(chunked));
    if (!same(whole, sunk))
        fuzz::PropertyFailed("ADDED objects written to the store's sink differ from their Objects",
                             expected + "--- sink:\n" + fuzz::Describe(sunk));
    if (!same(whole, rapidjson_only))
        fuzz::PropertyFailed("RapidJSON alone differs from the fast path",
                             expected + "--- rapidjson:\n" + fuzz::Describe(rapidjson_only));
    return 0;
}
