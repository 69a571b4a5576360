#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>

#include "ctrl/cache/internal/intern_table.hpp"

namespace ctrl::cache::internal {

// The bytes of CompactValue's form (compact_value.hpp says what it is for).
namespace compact {

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

inline uint8_t Tag(Type type, uint8_t immediate) {
    return static_cast<uint8_t>((type << 5) | immediate);
}

}  // namespace compact

// The bytes an encoder writes: appends that inline (a std::string's push_back is an out-of-line
// call per byte here), in a buffer kept for the next object.
class ByteBuffer {
  public:
    void Clear() { size_ = 0; }
    void Put(char c) {
        if (size_ == capacity_)
            Grow(1);
        data_[size_++] = c;
    }
    void Append(std::string_view bytes) {
        if (bytes.empty())
            return;  // its data may be null, which memcpy must not get even for 0 bytes
        if (capacity_ - size_ < bytes.size())
            Grow(bytes.size());
        std::memcpy(data_.get() + size_, bytes.data(), bytes.size());
        size_ += bytes.size();
    }
    // Opens a gap of n bytes at offset (moving what follows), for a length known only later.
    void InsertGap(std::size_t offset, std::size_t n) {
        if (capacity_ - size_ < n)
            Grow(n);
        std::memmove(data_.get() + offset + n, data_.get() + offset, size_ - offset);
        size_ += n;
    }
    char* data() { return data_.get(); }
    const char* data() const { return data_.get(); }
    std::size_t size() const { return size_; }
    // Frees the buffer when it grew past `bytes` (a rare large object), so it is not kept.
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

// Writes the values of one object in the compact form, interning member names and repeated string
// values as it goes: what CompactValue::Encode (from a document) and CompactBuilder (from a
// stream's values) share, so both write the same bytes for the same object. The caller holds the
// table's lock and has called NextObjectLocked for the object.
class CompactWriter {
  public:
    CompactWriter(InternTable& strings, ByteBuffer& out) : strings_(strings), out_(out) {}

    void Null() { out_.Put(static_cast<char>(compact::Tag(compact::kLiteral, 0))); }
    void Bool(bool value) { out_.Put(static_cast<char>(compact::Tag(compact::kLiteral, value ? 2 : 1))); }
    void Uint64(uint64_t value) { Integer(compact::kUint, value); }
    void Int64(int64_t value) {
        if (value >= 0)
            Integer(compact::kUint, static_cast<uint64_t>(value));
        else
            Integer(compact::kNegInt, static_cast<uint64_t>(-1 - value));
    }
    void Double(double value) {
        out_.Put(static_cast<char>(compact::Tag(compact::kDouble, 0)));
        char raw[sizeof value];
        std::memcpy(raw, &value, sizeof value);
        out_.Append(std::string_view(raw, sizeof raw));
    }
    void String(std::string_view value) {
        if (const std::optional<uint32_t> id = strings_.InternValueLocked(value)) {
            Integer(compact::kValueRef, *id);
        } else {
            Length(compact::kString, value.size());
            out_.Append(value);
        }
    }
    // An object's or array's tag with its count, when the count is known first.
    void Length(compact::Type type, uint64_t length) {
        if (length < compact::kLongLength) {
            out_.Put(static_cast<char>(compact::Tag(type, static_cast<uint8_t>(length))));
        } else {
            out_.Put(static_cast<char>(compact::Tag(type, compact::kLongLength)));
            Varint(length);
        }
    }
    // An object's or array's tag, its count to come (Close): where it is.
    std::size_t Open() {
        out_.Put(0);
        return out_.size() - 1;
    }
    // Writes the count of the container Open started at `at`, now that its values are written.
    void Close(std::size_t at, compact::Type type, uint64_t count) {
        if (count < compact::kLongLength) {
            out_.data()[at] = static_cast<char>(compact::Tag(type, static_cast<uint8_t>(count)));
            return;
        }
        char varint[10];
        const std::size_t n = VarintBytes(count, varint);
        out_.InsertGap(at + 1, n);
        out_.data()[at] = static_cast<char>(compact::Tag(type, compact::kLongLength));
        std::memcpy(out_.data() + at + 1, varint, n);
    }
    // A member name: an interned id, or the name inline.
    void Name(std::string_view name) {
        const std::optional<uint32_t> id = strings_.InternNameAtLocked(name, names_++);
        if (id && *id < compact::kOneByteIds) {
            out_.Put(static_cast<char>(*id));
        } else if (id && *id < compact::kTwoByteIds) {
            const uint32_t rest = *id - compact::kOneByteIds;
            out_.Put(static_cast<char>(compact::kTwoByteId | (rest >> 8)));
            out_.Put(static_cast<char>(rest & 0xff));
        } else if (name.size() < compact::kLongName - compact::kInlineName) {
            out_.Put(static_cast<char>(compact::kInlineName + name.size()));
            out_.Append(name);
        } else {
            out_.Put(static_cast<char>(compact::kLongName));
            Varint(name.size());
            out_.Append(name);
        }
    }

    // Member names written so far; Skipped counts names written by copying bytes (a remembered
    // value), so later positions stay those Name would have reached.
    std::size_t NamesWritten() const { return names_; }
    void SkippedNames(std::size_t names) { names_ += names; }

  private:
    void Integer(compact::Type type, uint64_t v) {
        if (v < compact::kSmallUintLimit) {
            out_.Put(static_cast<char>(compact::Tag(type, static_cast<uint8_t>(v))));
            return;
        }
        uint8_t bytes = 1;
        while (bytes < 8 && (v >> (8 * bytes)) != 0)
            ++bytes;
        out_.Put(static_cast<char>(compact::Tag(type, static_cast<uint8_t>(compact::kSmallUintLimit - 1 + bytes))));
        for (uint8_t i = 0; i < bytes; ++i)
            out_.Put(static_cast<char>((v >> (8 * i)) & 0xff));
    }
    static std::size_t VarintBytes(uint64_t v, char* out) {
        std::size_t n = 0;
        while (v >= 0x80) {
            out[n++] = static_cast<char>((v & 0x7f) | 0x80);
            v >>= 7;
        }
        out[n++] = static_cast<char>(v);
        return n;
    }
    void Varint(uint64_t v) {
        char bytes[10];
        out_.Append(std::string_view(bytes, VarintBytes(v, bytes)));
    }

    InternTable& strings_;
    ByteBuffer& out_;
    std::size_t names_ = 0;  // member names written so far: the position InternNameAtLocked guesses by
};

}  // namespace ctrl::cache::internal
