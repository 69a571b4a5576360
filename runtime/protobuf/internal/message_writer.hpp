#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status.hpp"
#include "ctrl/protobuf/internal/schema.hpp"
#include "ctrl/protobuf/json_events.hpp"

// Writes protobuf messages of the built-in schema as the JSON encoding/json writes for the same Go
// structs: as JsonEvents (text, or a document built directly). Internal to ctrl::protobuf.
namespace ctrl::protobuf::internal {

// The kind and apiVersion an envelope carries, written where a message inlines metav1.TypeMeta.
struct TypeMetaValues {
    std::string_view kind;
    std::string_view api_version;
};

// One writer per call; it keeps scratch space across the messages of one object.
class MessageWriter final {
  public:
    // drop_managed_fields: the first envelope's object is written without metadata.managedFields.
    MessageWriter(const Schema& schema, JsonEvents& out, bool drop_managed_fields = false)
        : schema_(schema), out_(out), drop_managed_fields_(drop_managed_fields) {}

    // Writes message `message` decoded from `data` as a JSON object.
    Status WriteObject(std::int32_t message, std::string_view data, const TypeMetaValues* type_meta);
    // Writes the object an envelope (`k8s\0` + runtime.Unknown) holds, with its kind and apiVersion.
    Status WriteEnvelope(std::string_view envelope);

  private:
    // A field of the message being written, as found on the wire.
    struct Occurrence {
        std::uint32_t field;  // position in the message's fields
        std::uint8_t wire_type;
        std::uint64_t number;
        std::string_view bytes;
    };

    Status WriteFields(std::int32_t message, std::string_view data, const TypeMetaValues* type_meta);
    Status WriteField(const Field& field, std::size_t begin, std::size_t end, const TypeMetaValues* type_meta);
    Status WriteRepeated(const Field& field, std::size_t begin, std::size_t end);
    Status WriteMap(const Field& field, std::size_t begin, std::size_t end);
    // Writes a value of `kind`; `value` null means absent (Go's zero value).
    Status WriteValue(Kind kind, std::int32_t message, bool wrapped, const Occurrence* value);
    Status WriteSpecial(Kind kind, std::string_view bytes, bool present);
    // Writes the string a Go formatter appended quoted to scratch_ (a time, a duration, base64).
    void WriteFormatted();
    // The bytes of a singular message field: the one occurrence, or all of them concatenated
    // (protobuf merges repeated occurrences of a message) into `merged`.
    std::string_view MessageBytes(std::size_t begin, std::size_t end, std::string& merged) const;
    Status Malformed(std::string_view what) const;
    // Whether `field` of `message` is the first envelope's metadata.managedFields, to leave out.
    bool IsDroppedManagedFields(std::int32_t message, const Field& field) const;

    const Schema& schema_;
    JsonEvents& out_;
    std::string scratch_;
    std::vector<Occurrence> occurrences_;
    std::vector<std::int32_t> messages_;  // the messages being written, outermost first
    std::vector<std::string_view> path_;  // the JSON names leading to the current field
    bool drop_managed_fields_;
    // messages_.size() when the first envelope began (its object's ObjectMeta is two deeper); -1 before.
    std::ptrdiff_t envelope_depth_ = -1;
};

}  // namespace ctrl::protobuf::internal
