#pragma once

// Lenient reads and forcing writes of an Object's fields, for the typed views' accessors. Reads
// never fail: a missing field, a null, or a value of another type reads as absent. Writes create
// missing intermediate objects and replace values of another type on the way, as Object's
// metadata setters do. RapidJSON stays inside runtime/: only .cpp files include this header.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/internal/json.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::api::internal {

using JsonValue = ctrl::internal::JsonValue;

// The value at path below from (or the object's root), or nullptr when a field on the way is
// missing, null or not an object.
const JsonValue* Find(const JsonValue* from, FieldPath path);
const JsonValue* Find(const Object& object, FieldPath path);

// A value of the wanted type, or absent.
std::optional<std::string_view> OptString(const JsonValue* value);
std::optional<int64_t> OptInt(const JsonValue* value);
std::optional<bool> OptBool(const JsonValue* value);
// "" / fallback when absent.
std::string_view String(const JsonValue* value);
std::string StringCopy(const JsonValue* value);
int64_t Int(const JsonValue* value, int64_t fallback = 0);
bool Bool(const JsonValue* value, bool fallback = false);
// The string elements of an array (others skipped); empty when not an array.
std::vector<std::string> Strings(const JsonValue* value);
// The string members of an object (others skipped); empty when not an object.
std::map<std::string, std::string> StringMap(const JsonValue* value);

// Calls f(const JsonValue&) for each element of an array that is a JSON object.
template <typename F>
void ForEachObject(const JsonValue* array, F&& f) {
    if (array == nullptr || !array->IsArray())
        return;
    for (const JsonValue& element : array->GetArray()) {
        if (element.IsObject())
            f(element);
    }
}

// Writes value at path (path must not be empty), creating or replacing what is on the way.
void SetString(Object& object, FieldPath path, std::string_view value);
void SetInt(Object& object, FieldPath path, int64_t value);
void SetBool(Object& object, FieldPath path, bool value);
void SetStrings(Object& object, FieldPath path, const std::vector<std::string>& value);
void SetStringMap(Object& object, FieldPath path, const std::map<std::string, std::string>& value);
// Moves value (which must live in object's pool: see Allocator) to path.
void SetValue(Object& object, FieldPath path, JsonValue&& value);
// The pool values set with SetValue must be built in.
ctrl::internal::PoolAllocator& Allocator(Object& object);
// Appends value (which must live in object's pool) to the array at path, creating the array when
// it is missing (or replacing a value of another type).
void Append(Object& object, FieldPath path, JsonValue&& value);
// member[key] = value, copied into allocator's pool; member must be a JSON object.
void PutString(JsonValue& member, std::string_view key, std::string_view value,
               ctrl::internal::PoolAllocator& allocator);
// Removes the field at path if it is there.
void Remove(Object& object, FieldPath path);
// The object at path, created (or replacing a value of another type) when needed.
JsonValue& MutableObjectAt(Object& object, FieldPath path);
// The array at path, or nullptr when there is none.
JsonValue* MutableArrayAt(Object& object, FieldPath path);

}  // namespace ctrl::api::internal
