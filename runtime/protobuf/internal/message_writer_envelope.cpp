#include <string>

#include "ctrl/protobuf/internal/message_writer.hpp"
#include "ctrl/protobuf/internal/wire.hpp"

// The envelope of MessageWriter: `k8s\0` + runtime.Unknown{typeMeta{apiVersion = 1, kind = 2} = 1,
// raw = 2, contentEncoding = 3, contentType = 4} (k8s.io/apimachinery runtime/serializer/protobuf).
namespace ctrl::protobuf::internal {
namespace {

constexpr std::string_view kMagic{"k8s\0", 4};

}  // namespace

Status MessageWriter::WriteEnvelope(std::string_view envelope) {
    if (envelope.substr(0, kMagic.size()) != kMagic) {
        return BadRequestError("not a Kubernetes protobuf envelope: the bytes do not start with \"k8s\\x00\"");
    }
    WireReader reader(envelope.substr(kMagic.size()));
    WireField field;
    std::string_view type_meta;
    std::string_view raw;
    std::string_view content_encoding;
    while (reader.Next(field)) {
        if (field.wire_type != 2) {
            continue;
        }
        if (field.number == 1) {
            type_meta = field.bytes;
        } else if (field.number == 2) {
            raw = field.bytes;
        } else if (field.number == 3) {
            content_encoding = field.bytes;
        }
    }
    if (reader.error() != nullptr) {
        return BadRequestError(std::string("malformed protobuf envelope (runtime.Unknown): ") + reader.error());
    }
    if (!content_encoding.empty()) {
        return BadRequestError("protobuf envelope with content encoding \"" + std::string(content_encoding) +
                               "\" is not supported");
    }
    TypeMetaValues values;
    WireReader meta_reader(type_meta);
    while (meta_reader.Next(field)) {
        if (field.wire_type == 2 && field.number == 1) {
            values.api_version = field.bytes;
        } else if (field.wire_type == 2 && field.number == 2) {
            values.kind = field.bytes;
        }
    }
    if (meta_reader.error() != nullptr) {
        return BadRequestError(std::string("malformed protobuf envelope (runtime.TypeMeta): ") + meta_reader.error());
    }
    const std::int32_t message = schema_.MessageFor(values.api_version, values.kind);
    if (message < 0) {
        return NoMatchError("no built-in protobuf schema for apiVersion \"" + std::string(values.api_version) +
                            "\", kind \"" + std::string(values.kind) + "\"");
    }
    if (envelope_depth_ < 0) {
        envelope_depth_ = static_cast<std::ptrdiff_t>(messages_.size());
    }
    return WriteObject(message, raw, &values);
}

}  // namespace ctrl::protobuf::internal
