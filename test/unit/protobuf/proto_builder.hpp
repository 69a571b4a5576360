#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ctrl::protobuf::test {

// Builds protobuf messages field by field, for tests.
class ProtoBuilder {
  public:
    ProtoBuilder& Varint(std::uint32_t field, std::uint64_t value) {
        Tag(field, 0);
        Raw(value);
        return *this;
    }
    ProtoBuilder& Bytes(std::uint32_t field, std::string_view bytes) {
        Tag(field, 2);
        Raw(bytes.size());
        out_.append(bytes);
        return *this;
    }
    ProtoBuilder& Message(std::uint32_t field, const ProtoBuilder& message) { return Bytes(field, message.str()); }
    // A map entry {key = 1, value = 2 (bytes)}.
    ProtoBuilder& Entry(std::uint32_t field, std::string_view key, std::string_view value) {
        return Message(field, ProtoBuilder().Bytes(1, key).Bytes(2, value));
    }
    // Appends bytes as they are (to build malformed input).
    ProtoBuilder& Append(std::string_view bytes) {
        out_.append(bytes);
        return *this;
    }
    const std::string& str() const { return out_; }

  private:
    void Tag(std::uint32_t field, int wire) { Raw((std::uint64_t{field} << 3) | static_cast<std::uint64_t>(wire)); }
    void Raw(std::uint64_t value) {
        while (value >= 0x80) {
            out_ += static_cast<char>((value & 0x7F) | 0x80);
            value >>= 7;
        }
        out_ += static_cast<char>(value);
    }

    std::string out_;
};

// `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw}.
inline std::string Envelope(std::string_view api_version, std::string_view kind, const ProtoBuilder& raw) {
    ProtoBuilder unknown;
    unknown.Message(1, ProtoBuilder().Bytes(1, api_version).Bytes(2, kind)).Bytes(2, raw.str());
    return std::string("k8s\0", 4) + unknown.str();
}

}  // namespace ctrl::protobuf::test
