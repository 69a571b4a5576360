#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

// Reading protobuf's wire format. Internal to ctrl::protobuf.
namespace ctrl::protobuf::internal {

// One field of a message as it is on the wire.
struct WireField {
    std::uint32_t number = 0;
    std::uint8_t wire_type = 0;  // 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32
    std::uint64_t number_value = 0;
    std::string_view bytes;  // for wire type 2
};

// Reads the fields of one message in order. Next() is false at the end or on malformed bytes
// (then error() says what).
class WireReader final {
  public:
    explicit WireReader(std::string_view data) : data_(data) {}

    bool Next(WireField& field) {
        if (pos_ >= data_.size()) {
            return false;
        }
        std::uint64_t tag = 0;
        if (!Varint(tag)) {
            return Fail("truncated tag");
        }
        field.number = static_cast<std::uint32_t>(tag >> 3);
        field.wire_type = static_cast<std::uint8_t>(tag & 7);
        if (field.number == 0 || (tag >> 3) > 0x1FFFFFFF) {
            return Fail("field number 0 or too large");
        }
        switch (field.wire_type) {
            case 0:
                if (!Varint(field.number_value)) {
                    return Fail("truncated varint");
                }
                return true;
            case 1:
                return Fixed(field.number_value, 8);
            case 5:
                return Fixed(field.number_value, 4);
            case 2: {
                std::uint64_t length = 0;
                if (!Varint(length)) {
                    return Fail("truncated length");
                }
                if (length > data_.size() - pos_) {
                    return Fail("length beyond the end of the message");
                }
                field.bytes = data_.substr(pos_, static_cast<std::size_t>(length));
                pos_ += static_cast<std::size_t>(length);
                return true;
            }
            default:
                return Fail("unsupported wire type (groups are not used by Kubernetes)");
        }
    }

    // Reads a varint at the current position (for packed repeated fields).
    bool Varint(std::uint64_t& value) {
        value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos_ >= data_.size()) {
                return false;
            }
            const auto b = static_cast<unsigned char>(data_[pos_++]);
            value |= static_cast<std::uint64_t>(b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return true;
            }
        }
        return false;
    }

    bool AtEnd() const { return pos_ >= data_.size(); }
    const char* error() const { return error_; }
    std::size_t position() const { return pos_; }

  private:
    bool Fixed(std::uint64_t& value, std::size_t size) {
        if (data_.size() - pos_ < size) {
            return Fail("truncated fixed-size value");
        }
        value = 0;
        for (std::size_t i = 0; i < size; ++i) {
            value |= static_cast<std::uint64_t>(static_cast<unsigned char>(data_[pos_ + i])) << (8 * i);
        }
        pos_ += size;
        return true;
    }

    bool Fail(const char* error) {
        error_ = error;
        return false;
    }

    std::string_view data_;
    std::size_t pos_ = 0;
    const char* error_ = nullptr;
};

}  // namespace ctrl::protobuf::internal
