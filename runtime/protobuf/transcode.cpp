#include "ctrl/protobuf/transcode.hpp"

#include <cstdint>
#include <cstring>

#include "ctrl/protobuf/internal/go_json.hpp"
#include "ctrl/protobuf/internal/json_text_events.hpp"
#include "ctrl/protobuf/internal/message_writer.hpp"
#include "ctrl/protobuf/internal/schema.hpp"

namespace ctrl::protobuf {

bool HasBuiltinSchema(std::string_view api_version, std::string_view kind) {
    return internal::Schema::Builtin().MessageFor(api_version, kind) >= 0;
}

Status AppendJsonForEnvelope(std::string_view envelope, std::string& out) {
    internal::JsonTextEvents text(out);
    internal::MessageWriter writer(internal::Schema::Builtin(), text);
    return writer.WriteEnvelope(envelope);
}

StatusOr<std::string> JsonForEnvelope(std::string_view envelope) {
    std::string out;
    out.reserve(envelope.size() * 3 / 2);
    if (Status status = AppendJsonForEnvelope(envelope, out); !status.Ok()) {
        return status;
    }
    return out;
}

Status AppendJsonForWatchEvent(std::string_view event, std::string& out, bool drop_managed_fields) {
    internal::JsonTextEvents text(out);
    return WriteWatchEvent(event, text, drop_managed_fields);
}

Status WriteWatchEvent(std::string_view event, JsonEvents& events, bool drop_managed_fields) {
    const internal::Schema& schema = internal::Schema::Builtin();
    internal::MessageWriter writer(schema, events, drop_managed_fields);
    return writer.WriteObject(schema.watch_event_message(), event, nullptr);
}

std::string_view ReplaceInvalidUtf8(std::string_view text, std::string& scratch) {
    // ASCII eight bytes at a time: most strings are ASCII throughout.
    constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
    std::size_t i = 0;
    for (std::uint64_t word = 0; i + sizeof word <= text.size(); i += sizeof word) {
        std::memcpy(&word, text.data() + i, sizeof word);
        if ((word & kHighBits) != 0)
            break;
    }
    unsigned code = 0;
    while (i < text.size()) {
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = internal::Utf8SequenceLength(text, i, code);
        if (n == 0)
            break;
        i += n;
    }
    if (i == text.size())
        return text;
    constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
    scratch.assign(text.substr(0, i));
    while (i < text.size()) {
        const std::size_t n =
            static_cast<unsigned char>(text[i]) < 0x80 ? 1 : internal::Utf8SequenceLength(text, i, code);
        if (n == 0) {
            scratch += kReplacement;
            ++i;
        } else {
            scratch.append(text.substr(i, n));
            i += n;
        }
    }
    return scratch;
}

}  // namespace ctrl::protobuf
