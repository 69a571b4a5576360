#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ctrl/core/object.hpp"

namespace ctrl::scheme {

// A value that is an integer or a string (Kubernetes' IntOrString, a schema with
// x-kubernetes-int-or-string): a port number or name, a count or a percentage.
class IntOrString {
  public:
    IntOrString() : value_(int64_t{0}) {}
    IntOrString(int64_t value) : value_(value) {}                   // NOLINT(google-explicit-constructor)
    IntOrString(int value) : value_(int64_t{value}) {}              // NOLINT(google-explicit-constructor)
    IntOrString(std::string value) : value_(std::move(value)) {}    // NOLINT(google-explicit-constructor)
    IntOrString(const char* value) : value_(std::string(value)) {}  // NOLINT(google-explicit-constructor)

    bool IsInt() const { return std::holds_alternative<int64_t>(value_); }
    // The integer; 0 when it holds a string.
    int64_t IntValue() const { return IsInt() ? std::get<int64_t>(value_) : 0; }
    // The string; empty when it holds an integer.
    std::string StrValue() const { return IsInt() ? std::string() : std::get<std::string>(value_); }
    // "8080" or "http".
    std::string String() const { return IsInt() ? std::to_string(IntValue()) : StrValue(); }

    bool operator==(const IntOrString&) const = default;

  private:
    std::variant<int64_t, std::string> value_;
};

// The JSON type of the value a FieldRef names; kAbsent when it is missing (or on a path that does
// not exist), kNull for an explicit null.
enum class JsonType { kAbsent, kNull, kString, kInteger, kFloat, kBool, kObject, kArray };

// "a string", "an integer", ..., for messages.
std::string_view JsonTypeName(JsonType type);

// One step of a path into a JSON document: a member name or an array index.
struct PathStep {
    std::string name;
    std::size_t index = 0;
    bool is_index = false;

    bool operator==(const PathStep&) const = default;
};

// A read-only handle on one value inside an Object, named by its path from the root
// ("spec", "ports", 2, "name"): what generated typed kinds (ctrl-gen) read nested fields through.
// It re-walks the path on every read, so it never dangles while the Object lives, whatever is
// written to it meanwhile. A missing value, or one of another type than asked for, reads as
// nullopt / empty. Cheap enough for accessors: one member lookup per path step.
class FieldRef {
  public:
    // The root of object. object must outlive the handle.
    explicit FieldRef(const Object& object) : object_(&object) {}

    FieldRef Child(std::string_view name) const;
    FieldRef Item(std::size_t index) const;

    JsonType Type() const;
    // Present and not null.
    bool Exists() const;
    // The value when it has T's JSON type. T is one of std::string, int64_t, double (any number),
    // bool, IntOrString, Object (any JSON value, deep-copied).
    template <typename T>
    std::optional<T> Get() const;
    // The elements of an array of T (others skipped); empty when not an array.
    template <typename T>
    std::vector<T> GetArray() const;
    // The members of an object whose values are T (others skipped), sorted by key.
    template <typename T>
    std::map<std::string, T> GetMap() const;
    // Array length; 0 when not an array.
    std::size_t Size() const;
    // An object's member names in document order; empty when not an object.
    std::vector<std::string> Keys() const;

    // "spec.ports[2].name"; a map key that is not an identifier is written "tags[a.b/c]".
    std::string PathString() const;
    const std::vector<PathStep>& Path() const { return path_; }
    const Object& Root() const { return *object_; }

  protected:
    friend class Validation;  // evaluates CEL rules on the JSON value itself

    FieldRef(const Object* object, std::vector<PathStep> path) : object_(object), path_(std::move(path)) {}
    // The JSON value (an internal::JsonValue), or nullptr.
    const void* Resolve() const;

    const Object* object_;
    std::vector<PathStep> path_;
};

// A writable FieldRef: setters create missing objects on the way (replacing values of another
// type, as Object's metadata setters do). A step through an array index that does not exist makes
// the write a no-op.
class MutableFieldRef : public FieldRef {
  public:
    explicit MutableFieldRef(Object& object) : FieldRef(object), mutable_object_(&object) {}

    MutableFieldRef Child(std::string_view name) const;
    MutableFieldRef Item(std::size_t index) const;

    // T as for FieldRef::Get; a float that is not finite is not written.
    template <typename T>
    void Set(const T& value) const;
    template <typename T>
    void SetArray(const std::vector<T>& values) const;
    template <typename T>
    void SetMap(const std::map<std::string, T>& values) const;
    // Makes the value an object ({} when missing or of another type), keeping an existing object.
    void EnsureObject() const;
    // Appends {} to the array (made when missing or of another type) and returns its handle.
    MutableFieldRef AppendObject() const;
    // Removes the value from its parent object (or array); a no-op when absent.
    void Remove() const;

  private:
    MutableFieldRef(Object* object, std::vector<PathStep> path)
        : FieldRef(object, std::move(path)), mutable_object_(object) {}
    // The JSON value, created (as null) when missing; nullptr when an index step is out of range.
    void* ResolveForWrite() const;

    Object* mutable_object_;
};

}  // namespace ctrl::scheme
