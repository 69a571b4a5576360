#include "ctrl/api/internal/fields.hpp"

#include <utility>

namespace ctrl::api::internal {

namespace {

using ctrl::internal::FindJsonMember;
using ctrl::internal::JsonView;
using ctrl::internal::MakeJsonString;
using ctrl::internal::PoolAllocator;
using ctrl::internal::SetJsonMember;

// The object that holds path's last field, created along the way.
JsonValue& ParentAt(Object& object, FieldPath path) {
    const auto parts = path.Parts();
    return MutableObjectAt(object, FieldPath(parts.first(parts.size() - 1)));
}

}  // namespace

const JsonValue* Find(const JsonValue* from, FieldPath path) {
    const JsonValue* current = from;
    for (std::string_view part : path.Parts()) {
        if (current == nullptr || !current->IsObject())
            return nullptr;
        current = FindJsonMember(*current, part);
    }
    return current != nullptr && !current->IsNull() ? current : nullptr;
}

const JsonValue* Find(const Object& object, FieldPath path) {
    return Find(&object.Document().Root(), path);
}

std::optional<std::string_view> OptString(const JsonValue* value) {
    if (value == nullptr || !value->IsString())
        return std::nullopt;
    return JsonView(*value);
}

std::optional<int64_t> OptInt(const JsonValue* value) {
    if (value == nullptr || !value->IsInt64())
        return std::nullopt;
    return value->GetInt64();
}

std::optional<bool> OptBool(const JsonValue* value) {
    if (value == nullptr || !value->IsBool())
        return std::nullopt;
    return value->GetBool();
}

std::string_view String(const JsonValue* value) {
    return OptString(value).value_or(std::string_view());
}

std::string StringCopy(const JsonValue* value) {
    return std::string(String(value));
}

int64_t Int(const JsonValue* value, int64_t fallback) {
    return OptInt(value).value_or(fallback);
}

bool Bool(const JsonValue* value, bool fallback) {
    return OptBool(value).value_or(fallback);
}

std::vector<std::string> Strings(const JsonValue* value) {
    std::vector<std::string> out;
    if (value == nullptr || !value->IsArray())
        return out;
    out.reserve(value->Size());
    for (const JsonValue& element : value->GetArray()) {
        if (element.IsString())
            out.emplace_back(JsonView(element));
    }
    return out;
}

std::map<std::string, std::string> StringMap(const JsonValue* value) {
    std::map<std::string, std::string> out;
    if (value == nullptr || !value->IsObject())
        return out;
    for (auto it = value->MemberBegin(); it != value->MemberEnd(); ++it) {
        if (it->value.IsString())
            out.emplace(JsonView(it->name), JsonView(it->value));
    }
    return out;
}

JsonValue& MutableObjectAt(Object& object, FieldPath path) {
    auto& doc = object.Document();
    JsonValue* current = &doc.Root();
    if (!current->IsObject())
        current->SetObject();
    for (std::string_view part : path.Parts()) {
        JsonValue* next = FindJsonMember(*current, part);
        if (next == nullptr) {
            SetJsonMember(*current, part, JsonValue(rapidjson::kObjectType), doc.Allocator());
            next = &(current->MemberEnd() - 1)->value;
        } else if (!next->IsObject()) {
            next->SetObject();
        }
        current = next;
    }
    return *current;
}

JsonValue* MutableArrayAt(Object& object, FieldPath path) {
    auto* value = const_cast<JsonValue*>(Find(std::as_const(object), path));
    return value != nullptr && value->IsArray() ? value : nullptr;
}

PoolAllocator& Allocator(Object& object) {
    return object.Document().Allocator();
}

void SetValue(Object& object, FieldPath path, JsonValue&& value) {
    const auto parts = path.Parts();
    if (parts.empty())
        return;
    SetJsonMember(ParentAt(object, path), parts.back(), value, Allocator(object));
}

void SetString(Object& object, FieldPath path, std::string_view value) {
    SetValue(object, path, MakeJsonString(value, Allocator(object)));
}

void SetInt(Object& object, FieldPath path, int64_t value) {
    SetValue(object, path, JsonValue(value));
}

void SetBool(Object& object, FieldPath path, bool value) {
    SetValue(object, path, JsonValue(value));
}

void SetStrings(Object& object, FieldPath path, const std::vector<std::string>& value) {
    PoolAllocator& allocator = Allocator(object);
    JsonValue array(rapidjson::kArrayType);
    array.Reserve(static_cast<rapidjson::SizeType>(value.size()), allocator);
    for (const std::string& item : value)
        array.PushBack(MakeJsonString(item, allocator), allocator);
    SetValue(object, path, std::move(array));
}

void SetStringMap(Object& object, FieldPath path, const std::map<std::string, std::string>& value) {
    PoolAllocator& allocator = Allocator(object);
    JsonValue map(rapidjson::kObjectType);
    for (const auto& [key, text] : value)
        map.AddMember(MakeJsonString(key, allocator), MakeJsonString(text, allocator), allocator);
    SetValue(object, path, std::move(map));
}

void Append(Object& object, FieldPath path, JsonValue&& value) {
    PoolAllocator& allocator = Allocator(object);
    if (JsonValue* array = MutableArrayAt(object, path); array != nullptr) {
        array->PushBack(value, allocator);
        return;
    }
    JsonValue array(rapidjson::kArrayType);
    array.PushBack(value, allocator);
    SetValue(object, path, std::move(array));
}

void PutString(JsonValue& member, std::string_view key, std::string_view value, PoolAllocator& allocator) {
    SetJsonMember(member, key, MakeJsonString(value, allocator), allocator);
}

void Remove(Object& object, FieldPath path) {
    (void)object.RemoveNestedField(path);
}

}  // namespace ctrl::api::internal
