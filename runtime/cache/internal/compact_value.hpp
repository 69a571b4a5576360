#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ctrl/cache/internal/intern_table.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::cache::internal {

// One JSON value in the cache's compact binary form: one exact-size heap block, about 0.4-0.6 bytes
// per byte of compact JSON text for Kubernetes objects (member names, and string values the store's
// objects repeat, are InternTable ids; small numbers and short strings carry their type and length
// in one tag byte). Every value survives
// Encode -> Decode exactly, integers and doubles included. Immutable; safe to read from any thread.
//
// The form, for the curious: a value is a tag byte (type in the top 3 bits, a small immediate in
// the low 5) and what the tag announces; objects and arrays announce their member count, and each
// member is a name reference (an interned id in 1 or 2 bytes, or the name inline) and a value; a
// string is inline or the id of an interned value.
class CompactValue {
  public:
    CompactValue() = default;
    CompactValue(CompactValue&&) noexcept = default;
    CompactValue& operator=(CompactValue&&) noexcept = default;

    // Encodes object's document, interning member names and repeated string values in strings.
    static CompactValue Encode(const Object& object, InternTable& strings);
    // A value of bytes in the form (written by CompactWriter), copied into an exact-size block.
    static CompactValue FromBytes(std::string_view bytes);
    // A fresh Object equal to the encoded one, its pool sized to fit. strings must be the table the
    // value was encoded with.
    Object Decode(const InternTable& strings) const;

    std::span<const uint8_t> Bytes() const { return {bytes_.get(), size_}; }
    std::size_t Size() const { return size_; }

  private:
    std::unique_ptr<uint8_t[]> bytes_;
    uint32_t size_ = 0;
};

// A read-only position in an encoded value, for reading a few fields (metadata) without decoding
// the whole object. Valid while the CompactValue and the InternTable live.
class CompactCursor {
  public:
    CompactCursor(std::span<const uint8_t> bytes, const InternTable& strings)
        : at_(bytes.data()), end_(bytes.data() + bytes.size()), strings_(&strings) {}

    bool IsObject() const;
    bool IsString() const;
    // The member of an object named name; nullopt when this is not an object or has no such member.
    std::optional<CompactCursor> Member(std::string_view name) const;
    // The member at path (each step a member name).
    std::optional<CompactCursor> Find(std::initializer_list<std::string_view> path) const;
    // A string's text (pointing into the encoded bytes); nullopt for other types.
    std::optional<std::string_view> String() const;
    // The string members of an object (labels, annotations); other members are skipped.
    std::map<std::string, std::string> StringMap() const;

  private:
    CompactCursor(const uint8_t* at, const uint8_t* end, const InternTable& strings)
        : at_(at), end_(end), strings_(&strings) {}

    const uint8_t* at_;
    const uint8_t* end_;
    const InternTable* strings_;
};

}  // namespace ctrl::cache::internal
