#pragma once

// Typed, path-aware reads from a parsed discovery document. RapidJSON stays inside
// runtime/discovery/internal; public headers show the project's own types.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/internal/json.hpp"
#include "ctrl/core/status.hpp"

namespace ctrl::discovery::internal {

using ctrl::internal::JsonValue;

// A position in a JSON document, rendered only when an error names it:
// `items[1]("apps").versions[0]("v1").resources[3]("deployments").responseKind.kind`. Frames live on
// the stack of the parser that walks the document; a JsonPath must not outlive its parent.
class JsonPath final {
  public:
    // The document's root.
    JsonPath() = default;

    // The member key of this object.
    JsonPath Member(std::string_view key) const { return JsonPath(this, key, kNoIndex, {}, false); }
    // Element index of this array; label, when given, is the element's name, shown in messages.
    JsonPath Index(std::size_t index) const { return JsonPath(this, {}, index, {}, false); }
    JsonPath Index(std::size_t index, std::string_view label) const { return JsonPath(this, {}, index, label, true); }

    // "items[1](\"apps\").versions"; "the document" for the root.
    std::string String() const;

  private:
    static constexpr std::size_t kNoIndex = static_cast<std::size_t>(-1);

    JsonPath(const JsonPath* parent, std::string_view key, std::size_t index, std::string_view label, bool labelled)
        : parent_(parent), key_(key), index_(index), label_(label), labelled_(labelled) {}
    void Append(std::string& out) const;

    const JsonPath* parent_ = nullptr;
    std::string_view key_;
    std::size_t index_ = kNoIndex;
    std::string_view label_;
    bool labelled_ = false;
};

// Reads the members of one discovery document with the types the API declares. Every problem is a
// BadRequest "malformed discovery document (<document>): <path>: <problem>", so a caller can tell a
// broken answer from a missing kind. An absent member and a JSON null are the same (as Go decodes
// them). Cheap: holds a name only.
class FieldReader final {
  public:
    // document names the answer in messages, e.g. "GET /apis".
    explicit FieldReader(std::string_view document) : document_(document) {}

    Status Error(const JsonPath& path, std::string_view problem) const;
    // "<path>: is a string, not an object".
    Status TypeError(const JsonPath& path, const JsonValue& value, std::string_view expected) const;

    // The member, or nullptr when it is absent or null. obj must be an object.
    static const JsonValue* Find(const JsonValue& obj, std::string_view key);

    // value must be an object.
    Status ExpectObject(const JsonValue& value, const JsonPath& path) const;
    // An array member (out = nullptr when empty). required: the member must be present, though it may
    // be null (Go writes an empty slice as null).
    Status Array(const JsonValue& obj, std::string_view key, const JsonPath& path, bool required,
                 const JsonValue*& out) const;
    // An object member; absent or null gives out = nullptr unless required.
    Status Object(const JsonValue& obj, std::string_view key, const JsonPath& path, bool required,
                  const JsonValue*& out) const;
    // A string member; absent or null is "". required: it must also be non-empty.
    Status String(const JsonValue& obj, std::string_view key, const JsonPath& path, bool required,
                  std::string_view& out) const;
    Status String(const JsonValue& obj, std::string_view key, const JsonPath& path, bool required,
                  std::string& out) const;
    // A boolean member; absent or null is false unless required.
    Status Bool(const JsonValue& obj, std::string_view key, const JsonPath& path, bool required, bool& out) const;
    // An array of strings; absent or null is empty.
    Status StringArray(const JsonValue& obj, std::string_view key, const JsonPath& path,
                       std::vector<std::string>& out) const;
    // The root's "kind", when present, must be expected (not, say, a Status).
    Status ExpectKind(const JsonValue& root, std::string_view expected) const;

  private:
    std::string_view document_;
};

}  // namespace ctrl::discovery::internal
