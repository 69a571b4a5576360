#include "ctrl/cache/internal/compact_value.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "ctrl/cache/internal/compact_writer.hpp"
#include "ctrl/core/internal/json.hpp"

namespace ctrl::cache::internal {

namespace {

using ctrl::internal::JsonDocument;
using ctrl::internal::JsonValue;

using namespace compact;  // NOLINT(google-build-using-namespace): the form's constants, here only

// Walks a document, writing its values.
class Encoder {
  public:
    explicit Encoder(CompactWriter& out) : out_(out) {}

    void Value(const JsonValue& value) {
        if (value.IsNull()) {
            out_.Null();
        } else if (value.IsBool()) {
            out_.Bool(value.GetBool());
        } else if (value.IsUint64()) {
            out_.Uint64(value.GetUint64());
        } else if (value.IsInt64()) {
            out_.Int64(value.GetInt64());
        } else if (value.IsNumber()) {
            out_.Double(value.GetDouble());
        } else if (value.IsString()) {
            out_.String(std::string_view(value.GetString(), value.GetStringLength()));
        } else if (value.IsObject()) {
            out_.Length(kObject, value.MemberCount());
            for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
                out_.Name(ctrl::internal::JsonView(it->name));
                Value(it->value);
            }
        } else {
            out_.Length(kArray, value.Size());
            for (const JsonValue& element : value.GetArray())
                Value(element);
        }
    }

  private:
    CompactWriter& out_;
};

// Reads the encoded form. The bytes were written by Encoder, so reads are trusted, but never past
// the end: a read past it yields zeros and Ok() turns false.
class Reader {
  public:
    Reader(const uint8_t* at, const uint8_t* end) : at_(at), end_(end) {}

    bool Ok() const { return ok_; }
    const uint8_t* At() const { return at_; }

    uint8_t Byte() {
        if (at_ >= end_) {
            ok_ = false;
            return 0;
        }
        return *at_++;
    }
    uint8_t PeekType() const { return at_ < end_ ? static_cast<uint8_t>(*at_ >> 5) : 0xff; }

    uint64_t Varint() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64 && ok_; shift += 7) {
            const uint8_t b = Byte();
            v |= static_cast<uint64_t>(b & 0x7f) << shift;
            if ((b & 0x80) == 0)
                break;
        }
        return v;
    }
    uint64_t Length(uint8_t immediate) { return immediate < kLongLength ? immediate : Varint(); }
    uint64_t Integer(uint8_t immediate) {
        if (immediate < kSmallUintLimit)
            return immediate;
        const int bytes = immediate - (kSmallUintLimit - 1);
        uint64_t v = 0;
        for (int i = 0; i < bytes; ++i)
            v |= static_cast<uint64_t>(Byte()) << (8 * i);
        return v;
    }
    std::string_view Bytes(uint64_t n) {
        if (static_cast<uint64_t>(end_ - at_) < n) {
            ok_ = false;
            at_ = end_;
            return {};
        }
        std::string_view s(reinterpret_cast<const char*>(at_), n);
        at_ += n;
        return s;
    }
    std::string_view Name(const InternTable& strings) {
        const uint8_t b = Byte();
        if (b < kTwoByteId)
            return strings.Name(b);
        if (b < kInlineName)
            return strings.Name(kOneByteIds + ((static_cast<uint32_t>(b - kTwoByteId) << 8) | Byte()));
        if (b < kLongName)
            return Bytes(b - kInlineName);
        return Bytes(Varint());
    }
    void SkipName() {
        const uint8_t b = Byte();
        if (b >= kTwoByteId && b < kInlineName)
            Byte();
        else if (b >= kInlineName)
            Bytes(b < kLongName ? b - kInlineName : Varint());
    }
    void SkipValue() {
        const uint8_t tag = Byte();
        const uint8_t immediate = tag & kImmediateMask;
        switch (tag >> 5) {
            case kUint:
            case kNegInt:
            case kValueRef:
                Integer(immediate);
                break;
            case kDouble:
                Bytes(8);
                break;
            case kString:
                Bytes(Length(immediate));
                break;
            case kObject:
                for (uint64_t n = Length(immediate); n > 0 && ok_; --n) {
                    SkipName();
                    SkipValue();
                }
                break;
            case kArray:
                for (uint64_t n = Length(immediate); n > 0 && ok_; --n)
                    SkipValue();
                break;
            default:
                break;
        }
    }

  private:
    const uint8_t* at_;
    const uint8_t* end_;
    bool ok_ = true;
};

// Replays the encoded value as SAX events into a RapidJSON document (Document::Populate), which
// sizes every object and array exactly.
class Decoder {
  public:
    Decoder(Reader reader, const InternTable& strings) : reader_(reader), strings_(strings) {}

    template <typename Handler>
    bool operator()(Handler& handler) {
        return Value(handler, 0) && reader_.Ok();
    }

  private:
    template <typename Handler>
    bool Value(Handler& handler, int depth) {
        if (depth > ctrl::internal::kMaxJsonDepth)
            return false;
        const uint8_t tag = reader_.Byte();
        const uint8_t immediate = tag & kImmediateMask;
        switch (tag >> 5) {
            case kLiteral:
                return immediate == 0 ? handler.Null() : handler.Bool(immediate == 2);
            case kUint:
                return handler.Uint64(reader_.Integer(immediate));
            case kNegInt:
                return handler.Int64(-1 - static_cast<int64_t>(reader_.Integer(immediate)));
            case kDouble: {
                const std::string_view raw = reader_.Bytes(8);
                double d = 0;
                if (raw.size() == sizeof d)
                    std::memcpy(&d, raw.data(), sizeof d);
                return handler.Double(d);
            }
            case kString: {
                const std::string_view s = reader_.Bytes(reader_.Length(immediate));
                return handler.String(s.data(), static_cast<rapidjson::SizeType>(s.size()), true);
            }
            case kValueRef: {
                const std::string_view s = strings_.Value(static_cast<uint32_t>(reader_.Integer(immediate)));
                return handler.String(s.data(), static_cast<rapidjson::SizeType>(s.size()), true);
            }
            case kObject: {
                const uint64_t count = reader_.Length(immediate);
                if (!handler.StartObject())
                    return false;
                for (uint64_t i = 0; i < count; ++i) {
                    const std::string_view name = reader_.Name(strings_);
                    if (!reader_.Ok() ||
                        !handler.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()), true) ||
                        !Value(handler, depth + 1))
                        return false;
                }
                return handler.EndObject(static_cast<rapidjson::SizeType>(count));
            }
            case kArray: {
                const uint64_t count = reader_.Length(immediate);
                if (!handler.StartArray())
                    return false;
                for (uint64_t i = 0; i < count; ++i) {
                    if (!Value(handler, depth + 1))
                        return false;
                }
                return handler.EndArray(static_cast<rapidjson::SizeType>(count));
            }
            default:
                return false;
        }
    }

    Reader reader_;
    const InternTable& strings_;
};

}  // namespace

CompactValue CompactValue::Encode(const Object& object, InternTable& strings) {
    thread_local ByteBuffer out;
    out.Clear();
    {
        auto lock = strings.Lock();
        strings.NextObjectLocked();
        CompactWriter writer(strings, out);
        Encoder(writer).Value(object.Document().Root());
    }
    CompactValue value = FromBytes(std::string_view(out.data(), out.size()));
    out.ReleaseIfOver(std::size_t{256} << 10);
    return value;
}

CompactValue CompactValue::FromBytes(std::string_view bytes) {
    CompactValue value;
    value.size_ = static_cast<uint32_t>(bytes.size());
    value.bytes_ = std::make_unique_for_overwrite<uint8_t[]>(value.size_);
    if (value.size_ > 0)
        std::memcpy(value.bytes_.get(), bytes.data(), value.size_);
    return value;
}

Object CompactValue::Decode(const InternTable& strings) const {
    Object object;
    if (size_ == 0)
        return object;
    Decoder decoder(Reader(bytes_.get(), bytes_.get() + size_), strings);
    JsonDocument& doc = object.Document();
    doc.doc.Populate(decoder);
    // Populate leaves the document as it was when the generator fails; the bytes came from
    // Encode, so that means memory corruption, and an empty object is the safe answer.
    return object;
}

bool CompactCursor::IsObject() const {
    return at_ < end_ && (*at_ >> 5) == kObject;
}

bool CompactCursor::IsString() const {
    return at_ < end_ && ((*at_ >> 5) == kString || (*at_ >> 5) == kValueRef);
}

std::optional<CompactCursor> CompactCursor::Member(std::string_view name) const {
    if (!IsObject())
        return std::nullopt;
    Reader reader(at_, end_);
    const uint8_t tag = reader.Byte();
    for (uint64_t n = reader.Length(tag & kImmediateMask); n > 0 && reader.Ok(); --n) {
        if (reader.Name(*strings_) == name)
            return reader.Ok() ? std::optional(CompactCursor(reader.At(), end_, *strings_)) : std::nullopt;
        reader.SkipValue();
    }
    return std::nullopt;
}

std::optional<CompactCursor> CompactCursor::Find(std::initializer_list<std::string_view> path) const {
    std::optional<CompactCursor> at = *this;
    for (std::string_view name : path) {
        at = at->Member(name);
        if (!at)
            return std::nullopt;
    }
    return at;
}

std::optional<std::string_view> CompactCursor::String() const {
    if (!IsString())
        return std::nullopt;
    Reader reader(at_, end_);
    const uint8_t tag = reader.Byte();
    if ((tag >> 5) == kValueRef) {
        const uint64_t id = reader.Integer(tag & kImmediateMask);
        return reader.Ok() ? std::optional(strings_->Value(static_cast<uint32_t>(id))) : std::nullopt;
    }
    const std::string_view s = reader.Bytes(reader.Length(tag & kImmediateMask));
    return reader.Ok() ? std::optional(s) : std::nullopt;
}

std::map<std::string, std::string> CompactCursor::StringMap() const {
    std::map<std::string, std::string> out;
    if (!IsObject())
        return out;
    Reader reader(at_, end_);
    const uint8_t tag = reader.Byte();
    for (uint64_t n = reader.Length(tag & kImmediateMask); n > 0 && reader.Ok(); --n) {
        const std::string_view name = reader.Name(*strings_);
        const CompactCursor value(reader.At(), end_, *strings_);
        if (std::optional<std::string_view> s = value.String())
            out.emplace(name, *s);
        reader.SkipValue();
    }
    return out;
}

}  // namespace ctrl::cache::internal
