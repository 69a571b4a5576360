#include "ctrl/rest/internal/watch_event_parser.hpp"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "ctrl/core/internal/json.hpp"
#include "ctrl/rest/internal/simdjson_document.hpp"
#include "ctrl/rest/internal/sink_handler.hpp"
#include "ctrl/rest/object_sink.hpp"

namespace ctrl::rest::internal {

namespace {

using ctrl::internal::FindJsonMember;
using ctrl::internal::JsonDocument;
using ctrl::internal::JsonValue;
using ctrl::internal::JsonView;
using Document = JsonDocument::Document;

static_assert(kWatchEventParserPadding >= simdjson::SIMDJSON_PADDING);

// Bytes of the line shown on each side of an error.
constexpr std::size_t kSnippetRadius = 24;
// The fast path's first allocation per thread; it grows with the largest event parsed.
constexpr std::size_t kFastParserInitialBytes = std::size_t{64} << 10;

// Appends a byte of a line as a snippet shows it: quotes and backslashes escaped, other bytes that are
// not printable ASCII as \xNN.
void AppendShown(std::string& out, char c) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
        out += '\\';
        out += c;
    } else if (byte >= 0x20 && byte < 0x7f) {
        out += c;
    } else {
        char hex[8];
        std::snprintf(hex, sizeof(hex), "\\x%02x", byte);
        out += hex;
    }
}

// Up to kSnippetRadius bytes on each side of pos, as AppendShown shows them, except the contents of JSON
// string values, each shown as "***": a watch of Secrets carries their data in strings, and an error
// message ends up in log lines. Member names, punctuation, numbers and literals stay, which is what
// locates a syntax error. The line is scanned from its start, so a window that begins inside a string
// still knows it.
std::string Snippet(std::string_view line, std::size_t pos) {
    pos = std::min(pos, line.size());
    const std::size_t from = pos > kSnippetRadius ? pos - kSnippetRadius : 0;
    const std::size_t to = std::min(line.size(), pos + kSnippetRadius);
    std::string out;
    std::size_t i = 0;
    while (i < to) {
        if (line[i] != '"') {
            if (i >= from)
                AppendShown(out, line[i]);
            ++i;
            continue;
        }
        std::size_t end = i + 1;  // the closing quote, or past the line when the string is cut
        while (end < line.size() && line[end] != '"')
            end += line[end] == '\\' ? 2 : 1;
        std::size_t after = end + 1;
        while (after < line.size() && (line[after] == ' ' || line[after] == '\t' || line[after] == '\r'))
            ++after;
        const bool member_name = after < line.size() && line[after] == ':';
        bool hidden = false;
        for (std::size_t j = i; j <= end && j < to; ++j) {
            if (j < from)
                continue;
            if (member_name || j == i || j == end) {
                AppendShown(out, line[j]);
            } else if (!hidden) {
                out += "***";
                hidden = true;
            }
        }
        i = end + 1;
    }
    return out;
}

Status BadEvent(std::uint64_t offset, std::string_view problem, std::string_view line, std::size_t pos = 0) {
    return BadRequestError("malformed watch event at byte offset " + std::to_string(offset + pos) + ": " +
                           std::string(problem) + " near \"" + Snippet(line, pos) + "\"");
}

// ParseJson's error ("invalid JSON at byte offset K: reason") told at the line's offset in the stream.
Status MalformedJson(const Status& parse_error, std::string_view line, std::uint64_t offset) {
    constexpr std::string_view kPrefix = "invalid JSON at byte offset ";
    const std::string_view message = parse_error.Message();
    std::size_t pos = 0;
    std::string_view reason = message;
    if (message.starts_with(kPrefix)) {
        const char* first = message.data() + kPrefix.size();
        const auto [last, ec] = std::from_chars(first, message.data() + message.size(), pos);
        if (ec == std::errc() && std::string_view(last, 2) == ": ")
            reason = std::string_view(last + 2, static_cast<std::size_t>(message.data() + message.size() - last - 2));
    }
    return BadEvent(offset, "invalid JSON: " + std::string(reason), line, pos);
}

// The type named by the wrapper's "type" (nullptr when missing or not a string); BadRequest when unknown.
StatusOr<WatchEvent::Type> EventType(const std::string_view* name, std::string_view line, std::uint64_t offset) {
    if (name == nullptr)
        return BadEvent(offset, "no \"type\" string", line);
    if (const std::optional<WatchEvent::Type> type = WatchEventTypeNamed(*name))
        return *type;
    std::string shown(name->substr(0, 64));
    return BadEvent(offset, "unknown event type \"" + shown + "\"", line);
}

Status NoObject(std::string_view line, std::uint64_t offset) {
    return BadEvent(offset, "no \"object\" JSON object", line);
}

// The event's object to a handler (a document, or a sink's SinkHandler), as EmitSimdjson does, leaving out
// metadata.managedFields.
template <typename Handler>
bool EmitWithoutManagedFields(simdjson::dom::object object, Handler& doc) {
    doc.StartObject();
    rapidjson::SizeType members = 0;
    for (const simdjson::dom::key_value_pair field : object) {
        doc.Key(field.key.data(), static_cast<rapidjson::SizeType>(field.key.size()), true);
        ++members;
        simdjson::dom::object metadata;
        if (field.key != "metadata" || field.value.get_object().get(metadata) != simdjson::SUCCESS) {
            if (!EmitSimdjson(field.value, doc))
                return false;
            continue;
        }
        doc.StartObject();
        rapidjson::SizeType kept = 0;
        for (const simdjson::dom::key_value_pair meta : metadata) {
            if (meta.key == "managedFields")
                continue;
            doc.Key(meta.key.data(), static_cast<rapidjson::SizeType>(meta.key.size()), true);
            if (!EmitSimdjson(meta.value, doc))
                return false;
            ++kept;
        }
        if (!doc.EndObject(kept))
            return false;
    }
    return doc.EndObject(members);
}

// simdjson's DOM parser, one per thread: a line is parsed and built into its Object before the thread does
// anything else, so sharing it is safe, and memory does not grow with the number of watches.
struct FastParser {
    FastParser()
        : usable(parser.allocate(kFastParserInitialBytes, ctrl::internal::kMaxJsonDepth) == simdjson::SUCCESS) {}

    simdjson::dom::parser parser;
    bool usable;
};

// The event's object to the handler, without metadata.managedFields when drop_managed_fields.
template <typename Handler>
bool EmitObject(simdjson::dom::element object, bool drop_managed_fields, Handler& handler) {
    if (drop_managed_fields)
        return EmitWithoutManagedFields(object.get_object().value_unsafe(), handler);
    return EmitSimdjson(object, handler);
}

// The event's object written to the sink (Begin, its values, Finish): the event carries no Object.
StatusOr<WatchEvent> SinkObject(WatchEvent::Type type, simdjson::dom::element object, bool drop_managed_fields,
                                WatchObjectSink& sink, std::string_view line, std::uint64_t offset) {
    sink.Begin();
    SinkHandler handler(sink);
    const bool written = EmitObject(object, drop_managed_fields, handler);
    sink.Finish(written);
    if (!written)
        return BadEvent(offset, "an object the sink could not take", line);
    WatchEvent event{type, Object()};
    event.object_in_sink = true;
    return event;
}

// nullopt when simdjson cannot decode the line (malformed JSON, an integer beyond 64 bits, too deep): the
// RapidJSON path then decides. A sink that takes the event's type gets its object.
std::optional<StatusOr<WatchEvent>> ParseFast(std::string_view line, std::uint64_t offset, bool drop_managed_fields,
                                              WatchObjectSink* sink) {
    thread_local FastParser fast;
    if (!fast.usable)
        return std::nullopt;
    simdjson::dom::element root;
    if (fast.parser.parse(line.data(), line.size(), /*realloc_if_needed=*/false).get(root) != simdjson::SUCCESS)
        return std::nullopt;
    simdjson::dom::object wrapper;
    if (root.get_object().get(wrapper) != simdjson::SUCCESS)
        return StatusOr<WatchEvent>(BadEvent(offset, "not a JSON object", line));
    // The first "type" and "object" count, as in the RapidJSON path.
    std::optional<simdjson::dom::element> type_value;
    std::optional<simdjson::dom::element> object;
    for (const simdjson::dom::key_value_pair field : wrapper) {
        if (field.key == "type" && !type_value)
            type_value = field.value;
        else if (field.key == "object" && !object)
            object = field.value;
    }
    std::string_view type_name;
    const bool has_type = type_value && type_value->get_string().get(type_name) == simdjson::SUCCESS;
    auto type = EventType(has_type ? &type_name : nullptr, line, offset);
    if (!type.Ok())
        return StatusOr<WatchEvent>(type.GetStatus());
    if (!object || !object->is_object())
        return StatusOr<WatchEvent>(NoObject(line, offset));
    if (sink != nullptr && sink->Takes(*type))
        return SinkObject(*type, *object, drop_managed_fields, *sink, line, offset);
    WatchEvent event{*type, Object()};
    auto generate = [value = *object, drop_managed_fields](Document& doc) {
        return EmitObject(value, drop_managed_fields, doc);
    };
    event.object.Document().doc.Populate(generate);
    return StatusOr<WatchEvent>(std::move(event));
}

// Parses the whole line into the event's document, then moves "object" to its root: nothing is copied, and
// the wrapper leaves a few dozen bytes in the pool.
StatusOr<WatchEvent> ParseSlow(std::string_view line, std::uint64_t offset) {
    WatchEvent event;
    JsonDocument& doc = event.object.Document();
    if (Status parsed = ctrl::internal::ParseJson(line, doc); !parsed.Ok())
        return MalformedJson(parsed, line, offset);
    JsonValue& root = doc.Root();
    if (!root.IsObject())
        return BadEvent(offset, "not a JSON object", line);
    const JsonValue* type = FindJsonMember(root, "type");
    const std::string_view type_name = type != nullptr && type->IsString() ? JsonView(*type) : std::string_view();
    CTRL_ASSIGN_OR_RETURN(event.type,
                          EventType(type != nullptr && type->IsString() ? &type_name : nullptr, line, offset));
    JsonValue* object = FindJsonMember(root, "object");
    if (object == nullptr || !object->IsObject())
        return NoObject(line, offset);
    JsonValue moved;
    moved.Swap(*object);
    root.Swap(moved);
    return event;
}

}  // namespace

std::optional<WatchEvent::Type> WatchEventTypeNamed(std::string_view name) {
    static constexpr WatchEvent::Type kTypes[] = {WatchEvent::Type::kAdded, WatchEvent::Type::kModified,
                                                  WatchEvent::Type::kDeleted, WatchEvent::Type::kBookmark,
                                                  WatchEvent::Type::kError};
    for (const WatchEvent::Type type : kTypes) {
        if (WatchEventTypeName(type) == name)
            return type;
    }
    return std::nullopt;
}

StatusOr<WatchEvent> ParseWatchEvent(std::string_view line, std::uint64_t offset, std::size_t fast_path_max_bytes,
                                     bool drop_managed_fields, WatchObjectSink* sink) {
    if (line.size() <= fast_path_max_bytes) {
        if (auto event = ParseFast(line, offset, drop_managed_fields, sink))
            return std::move(*event);
    }
    StatusOr<WatchEvent> event = ParseSlow(line, offset);
    if (event.Ok() && drop_managed_fields)
        event->object.RemoveManagedFields();
    return event;
}

}  // namespace ctrl::rest::internal
