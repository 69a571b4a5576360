#include "runtime/rest/internal/protobuf_watch_event.hpp"

#include <simdjson.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/core/internal/json.hpp"
#include "runtime/protobuf/transcode.hpp"
#include "runtime/rest/internal/plain_json.hpp"
#include "runtime/rest/internal/simdjson_document.hpp"
#include "runtime/rest/internal/watch_event_parser.hpp"

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
// the object's values into the document: the first "type" and "object" count, as in
// ParseWatchEvent.
class EventBuilder final : public protobuf::JsonEvents {
  public:
    explicit EventBuilder(Document& doc) : doc_(doc) {}

    void StartObject() override { Open(/*object=*/true); }
    void EndObject() override { Close(/*object=*/true); }
    void StartArray() override { Open(/*object=*/false); }
    void EndArray() override { Close(/*object=*/false); }
    void FieldName(std::string_view name) override {
        if (!counts_.empty())
            doc_.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()), false);  // kept, not copied
        else if (depth_ == 1)
            member_ = name == "type" ? Member::kType : name == "object" ? Member::kObject : Member::kOther;
    }
    void Key(std::string_view name) override {
        if (!counts_.empty()) {
            const std::string_view valid = protobuf::ReplaceInvalidUtf8(name, scratch_);
            doc_.Key(Chars(valid), static_cast<rapidjson::SizeType>(valid.size()), true);
        }
    }
    void String(std::string_view value) override {
        if (Forwarding(false)) {
            const std::string_view valid = protobuf::ReplaceInvalidUtf8(value, scratch_);
            doc_.String(Chars(valid), static_cast<rapidjson::SizeType>(valid.size()), true);
        } else if (depth_ == 1 && member_ == Member::kType && !type_seen_) {
            type_seen_ = true;
            type_ = WatchEventTypeNamed(value);
            type_name_ = value.substr(0, 64);
        }
    }
    void Int64(std::int64_t value) override {
        if (Forwarding(false))
            doc_.Int64(value);
    }
    void Uint64(std::uint64_t value) override {
        if (!Forwarding(false))
            return;
        if (value <= static_cast<std::uint64_t>(INT64_MAX))
            doc_.Int64(static_cast<std::int64_t>(value));  // what a parser of the text makes of it
        else
            doc_.Uint64(value);
    }
    void Bool(bool value) override {
        if (Forwarding(false))
            doc_.Bool(value);
    }
    void Null() override {
        if (Forwarding(false))
            doc_.Null();
    }
    bool RawJson(std::string_view json) override {
        const bool starts_object = counts_.empty() && depth_ == 1 && member_ == Member::kObject && !object_seen_;
        if (starts_object)
            object_seen_ = true;
        else if (!Forwarding(false))
            return ParsesAsJson(json);
        if (IsPlainJson(json)) {  // FieldsV1 as the API server writes it
            if (starts_object && json.front() != '{')
                return true;
            built_ = built_ || starts_object;
            return EmitPlainJson(json, doc_, scratch_);
        }
        simdjson::dom::element value;
        if (FragmentParser().parse(json.data(), json.size()).get(value) == simdjson::SUCCESS) {
            if (starts_object && !value.is_object())
                return true;  // the event's object is no JSON object: no document
            built_ = built_ || starts_object;
            return EmitSimdjson(value, doc_);
        }
        // What simdjson refuses (integers beyond 64 bits, depth), RapidJSON decides, as for text.
        JsonDocument parsed;
        if (!ctrl::internal::ParseJson(json, parsed).Ok())
            return false;
        if (starts_object && !parsed.Root().IsObject())
            return true;
        built_ = built_ || starts_object;
        return parsed.Root().Accept(doc_);
    }

    bool TypeSeen() const { return type_seen_; }
    const std::optional<WatchEvent::Type>& Type() const { return type_; }
    const std::string& TypeName() const { return type_name_; }
    // Whether the event's object was a JSON object, built into the document.
    bool Built() const { return built_; }

  private:
    enum class Member { kNone, kType, kObject, kOther };

    // Whether a value starting now belongs to the document (counting it in its container), or
    // starts the event's object (an object starts the document; any other value leaves it out).
    bool Forwarding(bool is_object) {
        if (!counts_.empty()) {
            ++counts_.back();
            return true;
        }
        if (depth_ != 1 || member_ != Member::kObject || object_seen_)
            return false;
        object_seen_ = true;
        return is_object;
    }

    // The characters of a string for the document, which copies them with memcpy: never null (an
    // absent string, or a map entry without a key, is an empty view with no data).
    static const char* Chars(std::string_view text) { return text.empty() ? "" : text.data(); }

    void Open(bool object) {
        if (Forwarding(object)) {
            if (object)
                doc_.StartObject();
            else
                doc_.StartArray();
            counts_.push_back(0);
        }
        ++depth_;
    }
    // Closing the container that started the document ends the event's object.
    void Close(bool object) {
        --depth_;
        if (counts_.empty())
            return;
        const rapidjson::SizeType count = counts_.back();
        counts_.pop_back();
        if (object)
            doc_.EndObject(count);
        else
            doc_.EndArray(count);
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
    std::vector<rapidjson::SizeType> counts_;  // members or elements of each open container built
    int depth_ = 0;                            // containers open in the event
    Member member_ = Member::kNone;            // the wrapper's member being written
    bool type_seen_ = false;
    bool object_seen_ = false;
    bool built_ = false;
    std::optional<WatchEvent::Type> type_;
    std::string type_name_;
    std::string scratch_;
};

Status BadEvent(std::uint64_t offset, std::string_view problem) {
    return BadRequestError("malformed watch event at byte offset " + std::to_string(offset) + ": " +
                           std::string(problem));
}

}  // namespace

StatusOr<WatchEvent> DecodeProtobufWatchEvent(std::string_view event, std::uint64_t offset, bool drop_managed_fields) {
    WatchEvent decoded;
    EventBuilder builder(decoded.object.Document().doc);
    Status transcoded;
    auto generate = [&](Document&) {
        transcoded = protobuf::WriteWatchEvent(event, builder, drop_managed_fields);
        return transcoded.Ok() && builder.Built();
    };
    decoded.object.Document().doc.Populate(generate);
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
    return decoded;
}

}  // namespace ctrl::rest::internal
