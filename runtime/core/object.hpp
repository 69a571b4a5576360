#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl {

namespace internal {
struct JsonDocument;
}  // namespace internal

// A path of field names into an object: {"spec", "nodeName"}. Built from a braced list at the
// call site or from a span of names built at run time; it does not own the names, so it lives
// no longer than the call it is passed to.
class FieldPath {
  public:
    FieldPath(std::initializer_list<std::string_view> parts)  // NOLINT(google-explicit-constructor)
        : parts_(parts.begin(), parts.size()) {}
    FieldPath(std::span<const std::string_view> parts) : parts_(parts) {}  // NOLINT(google-explicit-constructor)

    std::span<const std::string_view> Parts() const { return parts_; }
    // "spec.nodeName", for error messages.
    std::string String() const;

  private:
    std::span<const std::string_view> parts_;
};

// metav1.OwnerReference.
struct OwnerReference {
    std::string api_version;
    std::string kind;
    std::string name;
    std::string uid;
    std::optional<bool> controller;
    std::optional<bool> block_owner_deletion;

    bool operator==(const OwnerReference&) const = default;
};

// One Kubernetes object (or any JSON value) held as one JSON document with its own memory
// pool. Every field, known or not, survives Parse -> ToJson. Metadata accessors are cheap;
// other fields are read and written by path. Copying is explicit (DeepCopy); moving is cheap
// and a moved-from Object reads as {}. Not thread-safe for writes; const reads from several
// threads are safe.
// A string_view returned by an accessor points into the document: it stays valid while the
// object lives and is not written to. Any write may invalidate it, not only a write to that
// field (the document moves values when an object or array grows or shrinks).
// Writes allocate from the object's pool, which is released only with the object; DeepCopy
// gives a compact copy.
class Object {
  public:
    // An empty JSON object: {}.
    Object();
    ~Object();
    Object(Object&&) noexcept;
    Object& operator=(Object&&) noexcept;
    Object(const Object&) = delete;
    Object& operator=(const Object&) = delete;

    // Parses one JSON document. Malformed JSON is BadRequest naming the byte offset and reason.
    static StatusOr<Object> Parse(std::string_view json);
    // Compact JSON. Integers are written exactly; other numbers in the shortest form that reads
    // back as the same double.
    std::string ToJson() const;
    Object DeepCopy() const;
    // Replaces this object's content with a deep copy of other's.
    void CopyFrom(const Object& other);

    bool IsJsonObject() const;
    // JSON equality: object members in any order; numbers by value (1 == 1.0).
    friend bool operator==(const Object& a, const Object& b);

    // Type information.
    std::string_view ApiVersion() const;
    std::string_view Kind() const;
    void SetApiVersion(std::string_view api_version);
    void SetKind(std::string_view kind);
    // From apiVersion and kind; BadRequest when either is missing or malformed.
    StatusOr<GroupVersionKind> GetGroupVersionKind() const;
    void SetGroupVersionKind(const GroupVersionKind& gvk);

    // metadata. A missing field, or one of another type, reads as empty (string), 0 (generation)
    // or nullopt. Setters create metadata when it is missing; on a value that is not a JSON
    // object they make it an empty object first.
    std::string_view Name() const;
    std::string_view GenerateName() const;
    std::string_view Namespace() const;
    std::string_view Uid() const;
    std::string_view ResourceVersion() const;
    int64_t Generation() const;
    std::optional<std::string> CreationTimestamp() const;
    std::optional<std::string> DeletionTimestamp() const;
    ObjectKey Key() const { return {std::string(Namespace()), std::string(Name())}; }
    void SetName(std::string_view name);
    void SetGenerateName(std::string_view generate_name);
    void SetNamespace(std::string_view namespace_name);
    void SetUid(std::string_view uid);
    void SetResourceVersion(std::string_view resource_version);
    void SetGeneration(int64_t generation);

    // Values that are not strings are skipped. Setting an empty map removes the field.
    std::map<std::string, std::string> Labels() const;
    std::optional<std::string_view> Label(std::string_view key) const;
    void SetLabels(const std::map<std::string, std::string>& labels);
    void SetLabel(std::string_view key, std::string_view value);
    std::map<std::string, std::string> Annotations() const;
    std::optional<std::string_view> Annotation(std::string_view key) const;
    void SetAnnotations(const std::map<std::string, std::string>& annotations);
    void SetAnnotation(std::string_view key, std::string_view value);

    // Setting an empty list removes the field, as does removing the last finalizer.
    std::vector<OwnerReference> OwnerReferences() const;
    void SetOwnerReferences(const std::vector<OwnerReference>& refs);
    std::vector<std::string> Finalizers() const;
    void SetFinalizers(const std::vector<std::string>& finalizers);
    // Each returns whether it changed the list.
    bool AddFinalizer(std::string_view finalizer);
    bool RemoveFinalizer(std::string_view finalizer);

    bool HasManagedFields() const;
    // Drops metadata.managedFields (the cache does this by default: it is often half an object).
    void RemoveManagedFields();

    // Reads by path. NotFound when a field on the path is missing or null; BadRequest naming the
    // path when a field has another type than asked for (e.g. "spec.replicas is a string, not an
    // integer"). NestedInt wants an integer that fits int64 (1.5 and 2.0 are floats); NestedFloat
    // takes any number. An empty path names the whole value.
    StatusOr<std::string> NestedString(FieldPath path) const;
    StatusOr<int64_t> NestedInt(FieldPath path) const;
    StatusOr<double> NestedFloat(FieldPath path) const;
    StatusOr<bool> NestedBool(FieldPath path) const;
    StatusOr<std::vector<std::string>> NestedStringSlice(FieldPath path) const;
    StatusOr<std::map<std::string, std::string>> NestedStringMap(FieldPath path) const;
    // Deep copies of the elements of an array (each any JSON value).
    StatusOr<std::vector<Object>> NestedSlice(FieldPath path) const;
    // A deep copy of a JSON object field.
    StatusOr<Object> NestedMap(FieldPath path) const;
    bool HasNestedField(FieldPath path) const;

    // Writes by path, creating missing (or null) intermediate objects. BadRequest when a field
    // on the way exists and is not an object, when the path is empty, or for a float that is
    // not finite; the object is then unchanged.
    Status SetNestedString(FieldPath path, std::string_view value);
    Status SetNestedInt(FieldPath path, int64_t value);
    Status SetNestedFloat(FieldPath path, double value);
    Status SetNestedBool(FieldPath path, bool value);
    Status SetNestedStringSlice(FieldPath path, const std::vector<std::string>& value);
    Status SetNestedStringMap(FieldPath path, const std::map<std::string, std::string>& value);
    // Sets a deep copy of value (any JSON value) at path.
    Status SetNestedField(FieldPath path, const Object& value);
    // Returns whether the field existed.
    bool RemoveNestedField(FieldPath path);

    // For the project's own layers (runtime/*/internal): the JSON document itself.
    internal::JsonDocument& Document();
    const internal::JsonDocument& Document() const;

  private:
    std::unique_ptr<internal::JsonDocument> doc_;
};

}  // namespace ctrl
