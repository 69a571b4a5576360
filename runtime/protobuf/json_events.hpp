#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ctrl::protobuf {

// Receives a transcoded object as the values its JSON is made of, in the order the API server's
// JSON would hold them (a SAX interface): what a caller implements to build a document straight
// from protobuf, with no JSON text between. Objects and arrays are opened and closed in pairs; in
// an object each value follows its FieldName or Key. Views are valid during the call only, except
// FieldName's. After an error (a RawJson that fails, or malformed protobuf) no more values come, and
// the containers open stay open.
class JsonEvents {
  public:
    virtual ~JsonEvents() = default;

    virtual void StartObject() = 0;
    virtual void EndObject() = 0;
    virtual void StartArray() = 0;
    virtual void EndArray() = 0;
    // A member name that is a Go struct field's JSON name ("metadata", "kind"): ASCII that needs no
    // escaping, in storage that lives as long as the program (a sink may keep the view).
    virtual void FieldName(std::string_view name) = 0;
    // A map's key (a label's name), and a string value: unescaped, the bytes as the object holds
    // them. They may be invalid UTF-8, which the API server's JSON shows as U+FFFD per invalid
    // byte (ReplaceInvalidUtf8).
    virtual void Key(std::string_view name) = 0;
    virtual void String(std::string_view value) = 0;
    virtual void Int64(std::int64_t value) = 0;
    virtual void Uint64(std::uint64_t value) = 0;
    virtual void Bool(bool value) = 0;
    virtual void Null() = 0;
    // A value the object holds as JSON text (metav1.FieldsV1, runtime.RawExtension), to be read as
    // one JSON value. False when it is not one (malformed, invalid UTF-8): the transcode fails.
    [[nodiscard]] virtual bool RawJson(std::string_view json) = 0;
};

// `text` with each byte that is not part of valid UTF-8 replaced by U+FFFD, as encoding/json writes
// it: `text` itself when it is valid (the common case, found by one scan), else `scratch`, filled.
std::string_view ReplaceInvalidUtf8(std::string_view text, std::string& scratch);

}  // namespace ctrl::protobuf
