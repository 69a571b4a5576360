#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

// The table tools/proto-schema generates from client-go's scheme (schema_table.cpp) and the
// look-ups over it. Internal to ctrl::protobuf.
namespace ctrl::protobuf::internal {

// How a field is encoded on the wire (the first word of its `protobuf:"..."` tag).
enum class Wire : std::uint8_t { kNone, kVarint, kZigZag, kFixed64, kFixed32, kBytes };

// How a Go struct field holds its value.
enum class Shape : std::uint8_t {
    kSingle,    // T: written even when absent from the bytes (as Go's zero value)
    kPointer,   // *T: absent is nil
    kRepeated,  // []T
    kMap,       // map[string]V: repeated entries {key = 1, value = 2}
    kInline,    // a struct inlined in JSON (`json:",inline"`) that is a nested message in protobuf
    kTypeMeta,  // metav1.TypeMeta inlined without a protobuf tag: kind and apiVersion of the envelope
};

// The JSON form of a value (for kMap: of the map's values).
enum class Kind : std::uint8_t {
    kNone,
    kString,
    kBool,
    kInt32,
    kInt64,
    kUint32,
    kUint64,
    kFloat32,
    kFloat64,
    kBytes,         // []byte: base64
    kMessage,       // a struct: an object in Go struct field order
    kTime,          // metav1.Time: RFC 3339 seconds in UTC, null when zero
    kMicroTime,     // metav1.MicroTime: RFC 3339 with 6 decimals, null when zero
    kDuration,      // metav1.Duration: Go's duration string
    kQuantity,      // resource.Quantity: its canonical string
    kIntOrString,   // intstr.IntOrString: a number or a string
    kFieldsV1,      // metav1.FieldsV1: its raw JSON
    kRawExtension,  // runtime.RawExtension: its raw JSON (or an envelope, in a WatchEvent)
    kUnsupported,
};

inline constexpr std::uint8_t kOmitEmpty = 1;
inline constexpr std::uint8_t kOmitZero = 2;  // only on Time and MicroTime: omitted when zero
inline constexpr std::uint8_t kWrapped = 4;   // a named []string with its own message {repeated string items = 1}
// Elements get their kind and apiVersion (the server's conversion sets them: StatefulSet's
// volumeClaimTemplates).
inline constexpr std::uint8_t kElementTypeMeta = 8;

// One Go struct field.
struct Field {
    std::uint32_t number;
    Wire wire;
    std::string_view json;  // empty for kInline and kTypeMeta
    Shape shape;
    Kind kind;
    std::uint8_t flags;
    std::int32_t message;  // for Kind::kMessage and Shape::kInline: index into the messages
    Kind value_kind;       // for Shape::kMap
    std::int32_t value_message;
};

// One Go struct: its fields in struct order, a range of the fields table.
struct Message {
    const char* name;
    std::int32_t first_field;
    std::int32_t field_count;
};

// A kind the scheme registers, and the struct its objects are.
struct KindEntry {
    const char* api_version;
    const char* kind;
    std::int32_t message;
};

// The generated arrays.
struct SchemaTable {
    std::span<const Field> fields;
    std::span<const Message> messages;
    std::span<const KindEntry> kinds;
};

const SchemaTable& BuiltinSchemaTable();

// Look-ups over the generated table, built once.
class Schema final {
  public:
    static const Schema& Builtin();

    std::span<const Field> FieldsOf(std::int32_t message) const;
    std::string_view NameOf(std::int32_t message) const { return table_.messages[message].name; }
    // The position of the field numbered `number` in FieldsOf(message), or -1.
    int FieldIndex(std::int32_t message, std::uint32_t number) const;
    // The first kind whose objects are `message` (by apiVersion, then kind), or null.
    const KindEntry* KindOf(std::int32_t message) const;
    // The message of a kind, or -1.
    std::int32_t MessageFor(std::string_view api_version, std::string_view kind) const;
    // Messages the transcoder itself needs.
    std::int32_t unknown_message() const { return unknown_; }
    std::int32_t watch_event_message() const { return watch_event_; }
    std::int32_t object_meta_message() const { return object_meta_; }

  private:
    explicit Schema(const SchemaTable& table);
    std::int32_t Find(std::string_view name) const;

    const SchemaTable& table_;
    // Per message, field numbers up to kDense map to field positions (-1: none); larger ones are
    // searched.
    static constexpr std::uint32_t kDense = 64;
    std::unique_ptr<std::int8_t[]> dense_;
    std::int32_t unknown_ = -1;
    std::int32_t watch_event_ = -1;
    std::int32_t object_meta_ = -1;
};

}  // namespace ctrl::protobuf::internal
