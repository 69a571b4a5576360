#include "ctrl/core/internal/json.hpp"

#include <rapidjson/encodedstream.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <cstdint>
#include <utility>

namespace ctrl::internal {
namespace {

constexpr unsigned kParseFlags = rapidjson::kParseFullPrecisionFlag | rapidjson::kParseValidateEncodingFlag;

// Forwards a reader's events to a document, refusing nesting deeper than kMaxJsonDepth.
class DepthLimitedHandler {
  public:
    using Ch = char;
    using SizeType = rapidjson::SizeType;

    explicit DepthLimitedHandler(JsonDocument::Document& doc) : doc_(doc) {}

    bool Null() { return doc_.Null(); }
    bool Bool(bool b) { return doc_.Bool(b); }
    bool Int(int i) { return doc_.Int(i); }
    bool Uint(unsigned u) { return doc_.Uint(u); }
    bool Int64(int64_t i) { return doc_.Int64(i); }
    bool Uint64(uint64_t u) { return doc_.Uint64(u); }
    // A number beyond a double's range (1e309) is refused, as Go's decoder refuses it: JSON has no
    // infinity to write it back as.
    bool Double(double d) {
        out_of_range_ = !std::isfinite(d);
        return !out_of_range_ && doc_.Double(d);
    }
    bool RawNumber(const Ch* s, SizeType n, bool copy) { return doc_.RawNumber(s, n, copy); }
    bool String(const Ch* s, SizeType n, bool copy) { return doc_.String(s, n, copy); }
    bool Key(const Ch* s, SizeType n, bool copy) { return doc_.Key(s, n, copy); }
    bool StartObject() { return Enter() && doc_.StartObject(); }
    bool EndObject(SizeType members) { return Leave() && doc_.EndObject(members); }
    bool StartArray() { return Enter() && doc_.StartArray(); }
    bool EndArray(SizeType elements) { return Leave() && doc_.EndArray(elements); }

    bool TooDeep() const { return too_deep_; }
    bool OutOfRange() const { return out_of_range_; }

  private:
    bool Enter() {
        too_deep_ = ++depth_ > kMaxJsonDepth;
        return !too_deep_;
    }
    bool Leave() {
        --depth_;
        return true;
    }

    JsonDocument::Document& doc_;
    int depth_ = 0;
    bool too_deep_ = false;
    bool out_of_range_ = false;
};

// Runs the reader for JsonDocument::Document::Populate, which moves the finished value into place.
struct ParseGenerator {
    std::string_view json;
    rapidjson::ParseResult result;
    bool too_deep = false;
    bool out_of_range = false;

    bool operator()(JsonDocument::Document& doc) {
        rapidjson::MemoryStream memory(json.data(), json.size());
        rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> input(memory);
        rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, rapidjson::CrtAllocator> reader(
            &JsonDocument::StackAllocator());
        DepthLimitedHandler handler(doc);
        result = reader.Parse<kParseFlags>(input, handler);
        too_deep = handler.TooDeep();
        out_of_range = handler.OutOfRange();
        return !result.IsError();
    }
};

}  // namespace

Status ParseJson(std::string_view json, JsonDocument& into) {
    ParseGenerator generator{json, {}, false, false};
    into.doc.Populate(generator);
    if (!generator.result.IsError())
        return OkStatus();
    into.doc.SetObject();
    const std::string reason = generator.too_deep ? "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels"
                               : generator.out_of_range
                                   ? std::string("a number beyond the range of a double")
                                   : std::string(rapidjson::GetParseError_En(generator.result.Code()));
    return BadRequestError("invalid JSON at byte offset " + std::to_string(generator.result.Offset()) + ": " + reason);
}

std::string WriteJson(const JsonValue& value) {
    rapidjson::StringBuffer buffer(&JsonDocument::StackAllocator());
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer, &JsonDocument::StackAllocator());
    value.Accept(writer);
    return std::string(buffer.GetString(), buffer.GetSize());
}

std::string_view JsonTypeName(const JsonValue& value) {
    switch (value.GetType()) {
        case rapidjson::kNullType:
            return "null";
        case rapidjson::kFalseType:
        case rapidjson::kTrueType:
            return "a boolean";
        case rapidjson::kObjectType:
            return "an object";
        case rapidjson::kArrayType:
            return "an array";
        case rapidjson::kStringType:
            return "a string";
        case rapidjson::kNumberType:
            return value.IsInt64() || value.IsUint64() ? "an integer" : "a float";
    }
    return "an unknown JSON value";
}

JsonValue MakeJsonString(std::string_view s, PoolAllocator& allocator) {
    // RapidJSON asserts on a null pointer even for length 0, which an empty string_view may hold.
    return JsonValue(s.empty() ? "" : s.data(), static_cast<rapidjson::SizeType>(s.size()), allocator);
}

const JsonValue* FindJsonMember(const JsonValue& value, std::string_view key) {
    for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
        if (std::string_view(it->name.GetString(), it->name.GetStringLength()) == key)
            return &it->value;
    }
    return nullptr;
}

JsonValue* FindJsonMember(JsonValue& value, std::string_view key) {
    return const_cast<JsonValue*>(FindJsonMember(std::as_const(value), key));
}

std::string_view JsonStringMember(const JsonValue& value, std::string_view key) {
    const JsonValue* member = FindJsonMember(value, key);
    if (member == nullptr || !member->IsString())
        return {};
    return {member->GetString(), member->GetStringLength()};
}

void SetJsonMember(JsonValue& obj, std::string_view key, JsonValue& value, PoolAllocator& allocator) {
    if (JsonValue* existing = FindJsonMember(obj, key)) {
        *existing = value;
        return;
    }
    JsonValue name = MakeJsonString(key, allocator);
    obj.AddMember(name, value, allocator);
}

bool EraseJsonMember(JsonValue& obj, std::string_view key) {
    for (auto it = obj.MemberBegin(); it != obj.MemberEnd(); ++it) {
        if (JsonView(it->name) == key) {
            obj.EraseMember(it);
            return true;
        }
    }
    return false;
}

}  // namespace ctrl::internal
