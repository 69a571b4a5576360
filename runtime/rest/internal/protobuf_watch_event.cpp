#include "ctrl/rest/internal/protobuf_watch_event.hpp"

#include <simdjson.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/core/internal/json.hpp"
#include "ctrl/protobuf/transcode.hpp"
#include "ctrl/rest/internal/plain_json.hpp"
#include "ctrl/rest/internal/simdjson_document.hpp"
#include "ctrl/rest/internal/sink_handler.hpp"
#include "ctrl/rest/internal/watch_event_parser.hpp"

namespace ctrl::rest::internal {
namespace {

using ctrl::internal::JsonDocument;
using Document = JsonDocument::Document;

// The fragment parser's first allocation; it grows with the largest fragment parsed.
constexpr std::size_t kFragmentParserInitialBytes = std::size_t{16} << 10;

// A simdjson parser per thread for the JSON text inside protobuf (FieldsV1, RawExtension), nesting
// limited as for a whole event: an event is built before its thread does anything else.
simdjson::dom::parser& FragmentParser() {
    thread_local simdjson::dom::parser parser;
    thread_local const bool allocated [[maybe_unused]] =
        parser.allocate(kFragmentParserInitialBytes, ctrl::internal::kMaxJsonDepth) == simdjson::SUCCESS;
    return parser;
}

// Reads the event wrapper {"type": ..., "object": {...}} as the transcoder writes it, and builds
// the object's values into the document, or writes them to the sink when it takes the event's type
// (known by then: the type comes first): the first "type" and "object" count, as in ParseWatchEvent.
class EventBuilder final : public protobuf::JsonEvents {
  public:
    EventBuilder(Document& doc, WatchObjectSink* sink) : doc_(doc), sink_(sink) {}

    void StartObject() override { Open(/*object=*/true); }
    void EndObject() override { Close(/*object=*/true); }
    void StartArray() override { Open(/*object=*/false); }
    void EndArray() override { Close(/*object=*/false); }
    void FieldName(std::string_view name) override {
        if (counts_.empty()) {
            if (depth_ == 1)
                member_ = name == "type" ? Member::kType : name == "object" ? Member::kObject : Member::kOther;
        } else {  // static: the document keeps the view, no copy
            ToTarget(
                [&](auto& to) { return to.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()), false); });
        }
    }
    void Key(std::string_view name) override {
        if (counts_.empty())
            return;
        const std::string_view valid = protobuf::ReplaceInvalidUtf8(name, scratch_);
        ToTarget([&](auto& to) { return to.Key(Chars(valid), static_cast<rapidjson::SizeType>(valid.size()), true); });
    }
    void String(std::string_view value) override {
        if (Forwarding(false)) {
            const std::string_view valid = protobuf::ReplaceInvalidUtf8(value, scratch_);
            ToTarget([&](auto& to) {
                return to.String(Chars(valid), static_cast<rapidjson::SizeType>(valid.size()), true);
            });
        } else if (depth_ == 1 && member_ == Member::kType && !type_seen_) {
            type_seen_ = true;
            type_ = WatchEventTypeNamed(value);
            type_name_ = value.substr(0, 64);
        }
    }
    void Int64(std::int64_t value) override {
        if (Forwarding(false))
            ToTarget([&](auto& to) { return to.Int64(value); });
    }
    void Uint64(std::uint64_t value) override {
        if (!Forwarding(false))
            return;
        if (value <= static_cast<std::uint64_t>(INT64_MAX))  // what a parser of the text makes of it
            ToTarget([&](auto& to) { return to.Int64(static_cast<std::int64_t>(value)); });
        else
            ToTarget([&](auto& to) { return to.Uint64(value); });
    }
    void Bool(bool value) override {
        if (Forwarding(false))
            ToTarget([&](auto& to) { return to.Bool(value); });
    }
    void Null() override {
        if (Forwarding(false))
            ToTarget([](auto& to) { return to.Null(); });
    }
    bool RawJson(std::string_view json) override {
        const bool starts_object = counts_.empty() && depth_ == 1 && member_ == Member::kObject && !object_seen_;
        if (starts_object)
            object_seen_ = true;
        else if (!Forwarding(false))
            return ParsesAsJson(json);
        if (sinking_ && !starts_object) {
            if (sink_->JsonText(json))
                return true;  // a text the sink has seen, and so parsed before: written already
            if (!EmitJsonText(json, false))
                return false;
            sink_->JsonTextEnd(json);
            return true;
        }
        return EmitJsonText(json, starts_object);
    }

    bool TypeSeen() const { return type_seen_; }
    const std::optional<WatchEvent::Type>& Type() const { return type_; }
    const std::string& TypeName() const { return type_name_; }
    // Whether the event's object was a JSON object, built into the document or written to the sink.
    bool Built() const { return built_; }
    // Whether the object went to the sink (Begin called).
    bool Sinking() const { return sinking_; }

  private:
    enum class Member { kNone, kType, kObject, kOther };

    // Parses a JSON text value and feeds it to where the object goes; one that starts the object
    // starts it only when it is a JSON object (true either way: no object is no parse error).
    bool EmitJsonText(std::string_view json, bool starts_object) {
        if (IsPlainJson(json)) {  // FieldsV1 as the API server writes it
            if (starts_object && !StartsBuilding(json.front() == '{'))
                return true;
            return Emit([&](auto& handler) { return EmitPlainJson(json, handler, scratch_); });
        }
        simdjson::dom::element value;
        if (FragmentParser().parse(json.data(), json.size()).get(value) == simdjson::SUCCESS) {
            if (starts_object && !StartsBuilding(value.is_object()))
                return true;  // the event's object is no JSON object: nothing built
            return Emit([&](auto& handler) { return EmitSimdjson(value, handler); });
        }
        // What simdjson refuses (integers beyond 64 bits, depth), RapidJSON decides, as for text.
        JsonDocument parsed;
        if (!ctrl::internal::ParseJson(json, parsed).Ok())
            return false;
        if (starts_object && !StartsBuilding(parsed.Root().IsObject()))
            return true;
        return Emit([&](auto& handler) { return parsed.Root().Accept(handler); });
    }

    // Whether a value starting now belongs to the object (counting it in its container), or
    // starts the event's object (an object starts it; any other value leaves it out).
    bool Forwarding(bool is_object) {
        if (!counts_.empty()) {
            ++counts_.back();
            return true;
        }
        if (depth_ != 1 || member_ != Member::kObject || object_seen_)
            return false;
        object_seen_ = true;
        return StartsBuilding(is_object);
    }

    // The event's object starts here when it is a JSON object: into the sink when it takes the type.
    bool StartsBuilding(bool is_object) {
        if (is_object && sink_ != nullptr && type_ && sink_->Takes(*type_)) {
            sinking_ = true;
            sink_->Begin();
        }
        return is_object;
    }

    // Calls write(to) with where the object goes, a RapidJSON-style SAX handler either way: the sink
    // (through SinkHandler) or the document.
    template <typename WriteFn>
    bool ToTarget(WriteFn write) {
        if (sinking_) {
            SinkHandler to(*sink_);
            return write(to);
        }
        return write(doc_);
    }

    // Feeds a parsed fragment to where the object goes; a fragment that starts the object ends it too.
    template <typename EmitFn>
    bool Emit(EmitFn emit) {
        const bool starts = counts_.empty();
        const bool ok = ToTarget(emit);
        built_ = built_ || (starts && ok);
        return ok;
    }

    // The characters of a string, never null (an absent string, or a map entry without a key, is an
    // empty view with no data; the document copies them with memcpy).
    static const char* Chars(std::string_view text) { return text.empty() ? "" : text.data(); }

    void Open(bool object) {
        if (Forwarding(object)) {
            ToTarget([object](auto& to) { return object ? to.StartObject() : to.StartArray(); });
            counts_.push_back(0);
        }
        ++depth_;
    }
    // Closing the container that started the object ends the event's object.
    void Close(bool object) {
        --depth_;
        if (counts_.empty())
            return;
        const rapidjson::SizeType count = counts_.back();
        counts_.pop_back();
        ToTarget([object, count](auto& to) { return object ? to.EndObject(count) : to.EndArray(count); });
        built_ = built_ || counts_.empty();
    }

    static bool ParsesAsJson(std::string_view json) {
        if (IsPlainJson(json))
            return true;
        simdjson::dom::element value;
        if (FragmentParser().parse(json.data(), json.size()).get(value) == simdjson::SUCCESS)
            return true;
        JsonDocument parsed;
        return ctrl::internal::ParseJson(json, parsed).Ok();
    }

    Document& doc_;
    WatchObjectSink* const sink_;
    std::vector<rapidjson::SizeType> counts_;  // members or elements of each open container built
    int depth_ = 0;                            // containers open in the event
    Member member_ = Member::kNone;            // the wrapper's member being written
    bool type_seen_ = false;
    bool object_seen_ = false;
    bool built_ = false;
    bool sinking_ = false;
    std::optional<WatchEvent::Type> type_;
    std::string type_name_;
    std::string scratch_;
};

Status BadEvent(std::uint64_t offset, std::string_view problem) {
    return BadRequestError("malformed watch event at byte offset " + std::to_string(offset) + ": " +
                           std::string(problem));
}

}  // namespace

StatusOr<WatchEvent> DecodeProtobufWatchEvent(std::string_view event, std::uint64_t offset, bool drop_managed_fields,
                                              WatchObjectSink* sink) {
    WatchEvent decoded;
    EventBuilder builder(decoded.object.Document().doc, sink);
    Status transcoded;
    auto generate = [&](Document&) {
        transcoded = protobuf::WriteWatchEvent(event, builder, drop_managed_fields);
        return transcoded.Ok() && builder.Built() && !builder.Sinking();
    };
    decoded.object.Document().doc.Populate(generate);
    if (builder.Sinking())
        sink->Finish(transcoded.Ok() && builder.Built());
    if (!transcoded.Ok())
        return Status(transcoded.Code(),
                      "protobuf watch event at byte offset " + std::to_string(offset) + ": " + transcoded.Message());
    if (!builder.TypeSeen())
        return BadEvent(offset, "no \"type\" string");
    if (!builder.Type())
        return BadEvent(offset, "unknown event type \"" + builder.TypeName() + "\"");
    if (!builder.Built())
        return BadEvent(offset, "no \"object\" JSON object");
    decoded.type = *builder.Type();
    decoded.object_in_sink = builder.Sinking();
    return decoded;
}

}  // namespace ctrl::rest::internal
