// The protobuf transcoder on any bytes: an envelope, or a watch stream fed in chunks the input
// chooses. It never crashes; an error is BadRequest or NoMatch; what it writes on success is JSON
// that parses; a stream fed in chunks gives the events the same stream fed whole gives; and an event
// transcoded without managedFields is the event transcoded whole with them dropped by the JSON
// parser (what the watch decoder does for a store that strips them, either way); and an event built
// straight into its Object (the watch decoder's path) is the object its text parses into, and one
// written into a store's compact form by the decoder's sink is, to the byte, that Object encoded.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/cache/internal/compact_builder.hpp"
#include "ctrl/cache/internal/compact_value.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/protobuf/transcode.hpp"
#include "ctrl/protobuf/watch_frames.hpp"
#include "ctrl/rest/internal/protobuf_watch_event.hpp"
#include "ctrl/rest/internal/watch_event_parser.hpp"
#include "test/fuzz/fuzz_input.hpp"

namespace ctrl::fuzz {
namespace {

void CheckError(const Status& status, std::string_view input) {
    if (status.Code() != StatusCode::kBadRequest && status.Code() != StatusCode::kNoMatch) {
        PropertyFailed("a transcoder error that is neither BadRequest nor NoMatch: " + status.ToString(),
                       std::string(input));
    }
}

void CheckJson(const std::string& json, std::string_view input) {
    if (!Object::Parse(json).Ok()) {
        PropertyFailed("the transcoder wrote JSON that does not parse: " + json, std::string(input));
    }
}

// The event's object as the watch decoder reads it (padding after the text, as the decoder keeps).
StatusOr<std::string> DecodedObject(std::string json, bool drop_managed_fields) {
    const std::size_t size = json.size();
    json.append(rest::internal::kWatchEventParserPadding, '\0');
    StatusOr<rest::WatchEvent> event =
        rest::internal::ParseWatchEvent(std::string_view(json.data(), size), 0, size, drop_managed_fields);
    if (!event.Ok()) {
        return event.GetStatus();
    }
    return event->object.ToJson();
}

// Transcoding without managedFields leaves out exactly what the parser's drop leaves out.
void CheckDroppedManagedFields(std::string_view frame, const std::string& whole, std::string_view input) {
    std::string dropped;
    if (Status status = protobuf::AppendJsonForWatchEvent(frame, dropped, /*drop_managed_fields=*/true); !status.Ok()) {
        PropertyFailed("an event transcodes whole but not without managedFields: " + status.ToString(),
                       std::string(input));
    }
    CheckJson(dropped, input);
    StatusOr<std::string> expected = DecodedObject(whole, /*drop_managed_fields=*/true);
    if (!expected.Ok()) {
        return;
    }
    StatusOr<std::string> got = DecodedObject(dropped, /*drop_managed_fields=*/false);
    if (!got.Ok() || *got != *expected) {
        PropertyFailed("an event transcoded without managedFields differs from it decoded with them dropped: " +
                           (got.Ok() ? *got : got.GetStatus().ToString()) + " vs " + *expected,
                       std::string(input));
    }
}

// Written into a store's compact form by the decoder's sink (an ADDED event), an event is what it
// decodes to without the sink, to the byte: the same outcome, the same error, and the bytes
// CompactValue::Encode writes for its Object.
void CheckSinkBuild(std::string_view frame, bool drop, std::string_view input) {
    StatusOr<rest::WatchEvent> built = rest::internal::DecodeProtobufWatchEvent(frame, 0, drop);
    cache::internal::InternTable sink_table;
    cache::internal::CompactBuilder builder(sink_table);
    StatusOr<rest::WatchEvent> sunk = rest::internal::DecodeProtobufWatchEvent(frame, 0, drop, &builder);
    std::optional<cache::internal::BuiltObject> taken = builder.Take();
    if (built.Ok() != sunk.Ok() || (!built.Ok() && built.GetStatus().ToString() != sunk.GetStatus().ToString())) {
        PropertyFailed("an event decodes otherwise into the store's sink: " + sunk.GetStatus().ToString() + " vs " +
                           built.GetStatus().ToString(),
                       std::string(input));
    }
    if (!built.Ok() || !sunk.Ok()) {
        if (taken) {
            PropertyFailed("a failed event left an object in the sink", std::string(input));
        }
        return;
    }
    const bool added = built->type == rest::WatchEvent::Type::kAdded;
    if (sunk->object_in_sink != added || taken.has_value() != added) {
        PropertyFailed("the sink took an event it should not, or missed one it should", std::string(input));
    }
    if (!taken) {
        return;
    }
    cache::internal::InternTable encode_table;
    const cache::internal::CompactValue encoded = cache::internal::CompactValue::Encode(built->object, encode_table);
    const auto bytes = [](const cache::internal::CompactValue& value) {
        return std::string(reinterpret_cast<const char*>(value.Bytes().data()), value.Bytes().size());
    };
    if (bytes(taken->value) != bytes(encoded) || taken->name != built->object.Name() ||
        taken->namespace_name != built->object.Namespace()) {
        PropertyFailed("the sink wrote other bytes than Encode for the event's object: " +
                           taken->value.Decode(sink_table).ToJson() + " vs " + built->object.ToJson(),
                       std::string(input));
    }
}

// Built straight into an Object, with managedFields kept or dropped, an event is the object the
// transcoder's text for it parses into (when that text parses).
void CheckDirectBuild(std::string_view frame, std::string_view input) {
    for (const bool drop : {false, true}) {
        CheckSinkBuild(frame, drop, input);
        std::string text;
        if (!protobuf::AppendJsonForWatchEvent(frame, text, drop).Ok()) {
            continue;
        }
        StatusOr<std::string> expected = DecodedObject(text, /*drop_managed_fields=*/false);
        if (!expected.Ok()) {
            continue;
        }
        StatusOr<rest::WatchEvent> built = rest::internal::DecodeProtobufWatchEvent(frame, 0, drop);
        if (!built.Ok() || built->object.ToJson() != *expected) {
            PropertyFailed("an event built straight into its Object differs from its text parsed: " +
                               (built.Ok() ? built->object.ToJson() : built.GetStatus().ToString()) + " vs " +
                               *expected,
                           std::string(input));
        }
    }
}

// Every frame of body fed in chunks of the given sizes (whole when none), transcoded; stops at the
// first error.
std::string Stream(std::string_view body, const std::vector<std::size_t>& chunk_sizes) {
    protobuf::WatchFrameReader reader(1 << 20);
    std::string out;
    std::size_t at = 0;
    std::size_t chunk = 0;
    while (at < body.size()) {
        const std::size_t size =
            std::min(body.size() - at, chunk_sizes.empty() ? body.size() : chunk_sizes[chunk++ % chunk_sizes.size()]);
        reader.Append(body.substr(at, size));
        at += size;
        while (true) {
            StatusOr<std::optional<std::string_view>> frame = reader.Next();
            if (!frame.Ok()) {
                CheckError(frame.GetStatus(), body);
                return out + "error\n";
            }
            if (!frame->has_value()) {
                break;
            }
            std::string event;
            const Status status = protobuf::AppendJsonForWatchEvent(**frame, event);
            if (!status.Ok()) {
                CheckError(status, body);
                return out + "error " + status.ToString() + "\n";
            }
            CheckJson(event, body);
            CheckDroppedManagedFields(**frame, event, body);
            CheckDirectBuild(**frame, body);
            out += event + "\n";
        }
    }
    return out;
}

}  // namespace
}  // namespace ctrl::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ctrl;
    fuzz::FuzzInput input(data, size);
    const std::uint8_t mode = input.TakeByte();
    if (mode % 2 == 0) {
        const std::string_view body = input.TakeRest();
        StatusOr<std::string> json = protobuf::JsonForEnvelope(body);
        if (json.Ok()) {
            fuzz::CheckJson(*json, body);
        } else {
            fuzz::CheckError(json.GetStatus(), body);
        }
        return 0;
    }
    std::vector<std::size_t> chunk_sizes;
    const std::uint8_t chunk_count = 1 + input.TakeByte() % 4;
    for (std::uint8_t i = 0; i < chunk_count; ++i) {
        chunk_sizes.push_back(1 + input.TakeByte() % 64);
    }
    const std::string_view body = input.TakeRest();
    if (fuzz::Stream(body, {}) != fuzz::Stream(body, chunk_sizes)) {
        fuzz::PropertyFailed("a watch stream fed in chunks gives other events than fed whole", std::string(body));
    }
    return 0;
}
