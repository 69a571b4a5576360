#include "runtime/cache/internal/compact_value.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "runtime/core/internal/json.hpp"

namespace ctrl::cache::internal {

namespace {

using ctrl::internal::JsonDocument;
using ctrl::internal::JsonValue;

// Tag types (top 3 bits of a value's first byte).
enum Type : uint8_t {
    kLiteral = 0,   // immediate: 0 null, 1 false, 2 true
    kUint = 1,      // a non-negative integer: immediate < 24 is the value, else 1-8 little-endian bytes follow
    kNegInt = 2,    // a negative integer n, stored as the kUint of -1 - n
    kDouble = 3,    // 8 bytes follow
    kString = 4,    // immediate < 31 is the length, 31: a varint length follows; then the bytes
    kObject = 5,    // the member count like a string's length; then (name, value) per member
    kArray = 6,     // the element count like a string's length; then the values
    kValueRef = 7,  // an interned string value: its id like a kUint's value
};
constexpr uint8_t kImmediateMask = 0x1f;
constexpr uint8_t kLongLength = 31;
constexpr uint8_t kSmallUintLimit = 24;

// Name references: < 0xC0 an interned id; 0xC0-0xDF an id of 192 + 13 bits (one more byte);
// 0xE0-0xFE an inline name of 0-30 bytes; 0xFF a varint length, then the name.
constexpr uint8_t kTwoByteId = 0xC0;
constexpr uint8_t kInlineName = 0xE0;
constexpr uint8_t kLongName = 0xFF;
constexpr uint32_t kOneByteIds = kTwoByteId;
constexpr uint32_t kTwoByteIds = kOneByteIds + (uint32_t{1} << 13);
static_assert(InternTable::kMaxNames <= kTwoByteIds);

uint8_t Tag(Type type, uint8_t immediate) {
    return static_cast<uint8_t>((type << 5) | immediate);
}

// The bytes an Encoder writes: appends that inline (a std::string's push_back is an out-of-line
// call per byte here), in a buffer each thread keeps for its next object.
class ByteBuffer {
  public:
    void Clear() { size_ = 0; }
    void Put(char c) {
        if (size_ == capacity_)
            Grow(1);
        data_[size_++] = c;
    }
    void Append(std::string_view bytes) {
        if (capacity_ - size_ < bytes.size())
            Grow(bytes.size());
        std::memcpy(data_.get() + size_, bytes.data(), bytes.size());
        size_ += bytes.size();
    }
    const char* data() const { return data_.get(); }
    std::size_t size() const { return size_; }
    // Frees the buffer when it grew past `bytes` (a rare large object), so no thread keeps it.
    void ReleaseIfOver(std::size_t bytes) {
        if (capacity_ > bytes) {
            data_.reset();
            size_ = capacity_ = 0;
        }
    }

  private:
    void Grow(std::size_t more) {
        const std::size_t capacity = std::max({capacity_ * 2, size_ + more, std::size_t{4096}});
        auto grown = std::make_unique_for_overwrite<char[]>(capacity);
        if (size_ > 0)
            std::memcpy(grown.get(), data_.get(), size_);
        data_ = std::move(grown);
        capacity_ = capacity;
    }

    std::unique_ptr<char[]> data_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

class Encoder {
  public:
    Encoder(InternTable& strings, ByteBuffer& out) : strings_(strings), out_(out) {}

    void Value(const JsonValue& value) {
        if (value.IsNull()) {
            out_.Put(static_cast<char>(Tag(kLiteral, 0)));
        } else if (value.IsBool()) {
            out_.Put(static_cast<char>(Tag(kLiteral, value.GetBool() ? 2 : 1)));
        } else if (value.IsUint64()) {
            Integer(kUint, value.GetUint64());
        } else if (value.IsInt64()) {
            Integer(kNegInt, static_cast<uint64_t>(-1 - value.GetInt64()));
        } else if (value.IsNumber()) {
            const double d = value.GetDouble();
            out_.Put(static_cast<char>(Tag(kDouble, 0)));
            char raw[sizeof d];
            std::memcpy(raw, &d, sizeof d);
            out_.Append(std::string_view(raw, sizeof raw));
        } else if (value.IsString()) {
            const std::string_view s(value.GetString(), value.GetStringLength());
            if (const std::optional<uint32_t> id = strings_.InternValueLocked(s)) {
                Integer(kValueRef, *id);
            } else {
                Length(kString, s.size());
                out_.Append(s);
            }
        } else if (value.IsObject()) {
            Length(kObject, value.MemberCount());
            for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
                Name(ctrl::internal::JsonView(it->name));
                Value(it->value);
            }
        } else {
            Length(kArray, value.Size());
            for (const JsonValue& element : value.GetArray())
                Value(element);
        }
    }

  private:
    void Integer(Type type, uint64_t v) {
        if (v < kSmallUintLimit) {
            out_.Put(static_cast<char>(Tag(type, static_cast<uint8_t>(v))));
            return;
        }
        uint8_t bytes = 1;
        while (bytes < 8 && (v >> (8 * bytes)) != 0)
            ++bytes;
        out_.Put(static_cast<char>(Tag(type, static_cast<uint8_t>(kSmallUintLimit - 1 + bytes))));
        for (uint8_t i = 0; i < bytes; ++i)
            out_.Put(static_cast<char>((v >> (8 * i)) & 0xff));
    }

    void Varint(uint64_t v) {
        while (v >= 0x80) {
            out_.Put(static_cast<char>((v & 0x7f) | 0x80));
            v >>= 7;
        }
        out_.Put(static_cast<char>(v));
    }

    void Length(Type type, uint64_t length) {
        if (length < kLongLength) {
            out_.Put(static_cast<char>(Tag(type, static_cast<uint8_t>(length))));
        } else {
            out_.Put(static_cast<char>(Tag(type, kLongLength)));
            Varint(length);
        }
    }

    void Name(std::string_view name) {
        const std::optional<uint32_t> id = strings_.InternNameAtLocked(name, names_++);
        if (id && *id < kOneByteIds) {
            out_.Put(static_cast<char>(*id));
        } else if (id && *id < kTwoByteIds) {
            const uint32_t rest = *id - kOneByteIds;
            out_.Put(static_cast<char>(kTwoByteId | (rest >> 8)));
            out_.Put(static_cast<char>(rest & 0xff));
        } else if (name.size() < kLongName - kInlineName) {
            out_.Put(static_cast<char>(kInlineName + name.size()));
            out_.Append(name);
        } else {
            out_.Put(static_cast<char>(kLongName));
            Varint(name.size());
            out_.Append(name);
        }
    }

    InternTable& strings_;
    ByteBuffer& out_;
    std::size_t names_ = 0;  // member names written so far
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
    Encoder encoder(strings, out);
    {
        auto lock = strings.Lock();
        strings.NextObjectLocked();
        encoder.Value(object.Document().Root());
    }
    CompactValue value;
    value.size_ = static_cast<uint32_t>(out.size());
    value.bytes_ = std::make_unique_for_overwrite<uint8_t[]>(value.size_);
    std::memcpy(value.bytes_.get(), out.data(), value.size_);
    out.ReleaseIfOver(std::size_t{256} << 10);
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
