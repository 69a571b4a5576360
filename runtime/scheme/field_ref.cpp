#include "ctrl/scheme/field_ref.hpp"

#include <cctype>
#include <cmath>
#include <type_traits>
#include <utility>

#include "ctrl/core/internal/json.hpp"

namespace ctrl::scheme {

namespace {

using ctrl::internal::FindJsonMember;
using ctrl::internal::JsonValue;
using ctrl::internal::JsonView;
using ctrl::internal::MakeJsonString;
using ctrl::internal::PoolAllocator;

const JsonValue* Step(const JsonValue* current, const PathStep& step) {
    if (current == nullptr)
        return nullptr;
    if (step.is_index) {
        if (!current->IsArray() || step.index >= current->Size())
            return nullptr;
        return &(*current)[static_cast<rapidjson::SizeType>(step.index)];
    }
    return current->IsObject() ? FindJsonMember(*current, step.name) : nullptr;
}

template <typename T>
std::optional<T> Decode(const JsonValue& value);

template <>
std::optional<std::string> Decode(const JsonValue& value) {
    return value.IsString() ? std::optional<std::string>(std::string(JsonView(value))) : std::nullopt;
}
template <>
std::optional<int64_t> Decode(const JsonValue& value) {
    return value.IsInt64() ? std::optional<int64_t>(value.GetInt64()) : std::nullopt;
}
template <>
std::optional<double> Decode(const JsonValue& value) {
    return value.IsNumber() ? std::optional<double>(value.GetDouble()) : std::nullopt;
}
template <>
std::optional<bool> Decode(const JsonValue& value) {
    return value.IsBool() ? std::optional<bool>(value.GetBool()) : std::nullopt;
}
template <>
std::optional<IntOrString> Decode(const JsonValue& value) {
    if (value.IsInt64())
        return IntOrString(value.GetInt64());
    if (value.IsString())
        return IntOrString(std::string(JsonView(value)));
    return std::nullopt;
}
template <>
std::optional<Object> Decode(const JsonValue& value) {
    if (value.IsNull())
        return std::nullopt;
    Object copy;
    copy.Document().doc.CopyFrom(value, copy.Document().Allocator());
    return copy;
}

JsonValue Encode(const std::string& value, PoolAllocator& allocator) {
    return MakeJsonString(value, allocator);
}
JsonValue Encode(int64_t value, PoolAllocator& /*allocator*/) {
    return JsonValue(value);
}
JsonValue Encode(double value, PoolAllocator& /*allocator*/) {
    return std::isfinite(value) ? JsonValue(value) : JsonValue();
}
JsonValue Encode(bool value, PoolAllocator& /*allocator*/) {
    return JsonValue(value);
}
JsonValue Encode(const IntOrString& value, PoolAllocator& allocator) {
    return value.IsInt() ? JsonValue(value.IntValue()) : MakeJsonString(value.StrValue(), allocator);
}
JsonValue Encode(const Object& value, PoolAllocator& allocator) {
    return JsonValue(value.Document().Root(), allocator);
}

std::vector<PathStep> Extended(const std::vector<PathStep>& path, PathStep step) {
    std::vector<PathStep> out;
    out.reserve(path.size() + 1);
    out.insert(out.end(), path.begin(), path.end());
    out.push_back(std::move(step));
    return out;
}

bool IsPlainName(std::string_view name) {
    if (name.empty())
        return false;
    for (char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_' && c != '-' && c != '$')
            return false;
    }
    return true;
}

}  // namespace

std::string_view JsonTypeName(JsonType type) {
    switch (type) {
        case JsonType::kAbsent:
            return "absent";
        case JsonType::kNull:
            return "null";
        case JsonType::kString:
            return "a string";
        case JsonType::kInteger:
            return "an integer";
        case JsonType::kFloat:
            return "a float";
        case JsonType::kBool:
            return "a boolean";
        case JsonType::kObject:
            return "an object";
        case JsonType::kArray:
            return "an array";
    }
    return "unknown";
}

FieldRef FieldRef::Child(std::string_view name) const {
    return FieldRef(object_, Extended(path_, PathStep{std::string(name), 0, false}));
}

FieldRef FieldRef::Item(std::size_t index) const {
    return FieldRef(object_, Extended(path_, PathStep{std::string(), index, true}));
}

const void* FieldRef::Resolve() const {
    const JsonValue* current = &object_->Document().Root();
    for (const PathStep& step : path_)
        current = Step(current, step);
    return current;
}

JsonType FieldRef::Type() const {
    const auto* value = static_cast<const JsonValue*>(Resolve());
    if (value == nullptr)
        return JsonType::kAbsent;
    if (value->IsNull())
        return JsonType::kNull;
    if (value->IsString())
        return JsonType::kString;
    if (value->IsInt64() || value->IsUint64())
        return JsonType::kInteger;
    if (value->IsNumber())
        return JsonType::kFloat;
    if (value->IsBool())
        return JsonType::kBool;
    return value->IsObject() ? JsonType::kObject : JsonType::kArray;
}

bool FieldRef::Exists() const {
    const JsonType type = Type();
    return type != JsonType::kAbsent && type != JsonType::kNull;
}

template <typename T>
std::optional<T> FieldRef::Get() const {
    const auto* value = static_cast<const JsonValue*>(Resolve());
    return value == nullptr ? std::nullopt : Decode<T>(*value);
}

template <typename T>
std::vector<T> FieldRef::GetArray() const {
    std::vector<T> out;
    const auto* value = static_cast<const JsonValue*>(Resolve());
    if (value == nullptr || !value->IsArray())
        return out;
    for (const JsonValue& element : value->GetArray()) {
        if (std::optional<T> decoded = Decode<T>(element))
            out.push_back(std::move(*decoded));
    }
    return out;
}

template <typename T>
std::map<std::string, T> FieldRef::GetMap() const {
    std::map<std::string, T> out;
    const auto* value = static_cast<const JsonValue*>(Resolve());
    if (value == nullptr || !value->IsObject())
        return out;
    for (const auto& member : value->GetObject()) {
        if (std::optional<T> decoded = Decode<T>(member.value))
            out.insert_or_assign(std::string(JsonView(member.name)), std::move(*decoded));
    }
    return out;
}

std::size_t FieldRef::Size() const {
    const auto* value = static_cast<const JsonValue*>(Resolve());
    return value != nullptr && value->IsArray() ? value->Size() : 0;
}

std::vector<std::string> FieldRef::Keys() const {
    std::vector<std::string> keys;
    const auto* value = static_cast<const JsonValue*>(Resolve());
    if (value == nullptr || !value->IsObject())
        return keys;
    for (const auto& member : value->GetObject())
        keys.emplace_back(JsonView(member.name));
    return keys;
}

std::string FieldRef::PathString() const {
    std::string out;
    for (const PathStep& step : path_) {
        if (step.is_index) {
            out += "[" + std::to_string(step.index) + "]";
        } else if (IsPlainName(step.name)) {
            out += (out.empty() ? "" : ".") + step.name;
        } else {
            out += "[" + step.name + "]";
        }
    }
    return out;
}

MutableFieldRef MutableFieldRef::Child(std::string_view name) const {
    return MutableFieldRef(mutable_object_, Extended(path_, PathStep{std::string(name), 0, false}));
}

MutableFieldRef MutableFieldRef::Item(std::size_t index) const {
    return MutableFieldRef(mutable_object_, Extended(path_, PathStep{std::string(), index, true}));
}

void* MutableFieldRef::ResolveForWrite() const {
    ctrl::internal::JsonDocument& doc = mutable_object_->Document();
    JsonValue* current = &doc.Root();
    for (const PathStep& step : path_) {
        if (step.is_index) {
            if (!current->IsArray() || step.index >= current->Size())
                return nullptr;
            current = &(*current)[static_cast<rapidjson::SizeType>(step.index)];
            continue;
        }
        if (!current->IsObject())
            current->SetObject();
        JsonValue* member = FindJsonMember(*current, step.name);
        if (member == nullptr) {
            current->AddMember(MakeJsonString(step.name, doc.Allocator()), JsonValue(), doc.Allocator());
            member = &(current->MemberEnd() - 1)->value;
        }
        current = member;
    }
    return current;
}

template <typename T>
void MutableFieldRef::Set(const T& value) const {
    if constexpr (std::is_same_v<T, Object>) {
        if (&value == mutable_object_) {
            Set(mutable_object_->DeepCopy());  // an Object set into itself: copy what it was first
            return;
        }
    }
    JsonValue encoded = Encode(value, mutable_object_->Document().Allocator());
    if (encoded.IsNull())
        return;
    if (auto* target = static_cast<JsonValue*>(ResolveForWrite()))
        *target = encoded;
}

template <typename T>
void MutableFieldRef::SetArray(const std::vector<T>& values) const {
    PoolAllocator& allocator = mutable_object_->Document().Allocator();
    JsonValue array(rapidjson::kArrayType);
    for (const T& value : values) {
        JsonValue encoded = Encode(value, allocator);
        if (!encoded.IsNull())
            array.PushBack(encoded, allocator);
    }
    if (auto* target = static_cast<JsonValue*>(ResolveForWrite()))
        *target = array;
}

template <typename T>
void MutableFieldRef::SetMap(const std::map<std::string, T>& values) const {
    PoolAllocator& allocator = mutable_object_->Document().Allocator();
    JsonValue map(rapidjson::kObjectType);
    for (const auto& [key, value] : values) {
        JsonValue encoded = Encode(value, allocator);
        if (!encoded.IsNull())
            map.AddMember(MakeJsonString(key, allocator), encoded, allocator);
    }
    if (auto* target = static_cast<JsonValue*>(ResolveForWrite()))
        *target = map;
}

void MutableFieldRef::EnsureObject() const {
    auto* target = static_cast<JsonValue*>(ResolveForWrite());
    if (target != nullptr && !target->IsObject())
        target->SetObject();
}

MutableFieldRef MutableFieldRef::AppendObject() const {
    auto* target = static_cast<JsonValue*>(ResolveForWrite());
    if (target == nullptr)
        return Item(0);  // an unreachable path: writes through the handle do nothing
    if (!target->IsArray())
        target->SetArray();
    target->PushBack(JsonValue(rapidjson::kObjectType), mutable_object_->Document().Allocator());
    return Item(target->Size() - 1);
}

void MutableFieldRef::Remove() const {
    if (path_.empty())
        return;
    JsonValue* parent = &mutable_object_->Document().Root();
    for (std::size_t i = 0; i + 1 < path_.size(); ++i) {
        parent = const_cast<JsonValue*>(Step(parent, path_[i]));
        if (parent == nullptr)
            return;
    }
    const PathStep& last = path_.back();
    if (!last.is_index && parent->IsObject()) {
        ctrl::internal::EraseJsonMember(*parent, last.name);
    } else if (last.is_index && parent->IsArray() && last.index < parent->Size()) {
        parent->Erase(parent->Begin() + last.index);
    }
}

#define CTRL_FIELD_REF_INSTANTIATE(T)                                        \
    template std::optional<T> FieldRef::Get<T>() const;                      \
    template std::vector<T> FieldRef::GetArray<T>() const;                   \
    template std::map<std::string, T> FieldRef::GetMap<T>() const;           \
    template void MutableFieldRef::Set<T>(const T&) const;                   \
    template void MutableFieldRef::SetArray<T>(const std::vector<T>&) const; \
    template void MutableFieldRef::SetMap<T>(const std::map<std::string, T>&) const;

CTRL_FIELD_REF_INSTANTIATE(std::string)
CTRL_FIELD_REF_INSTANTIATE(int64_t)
CTRL_FIELD_REF_INSTANTIATE(double)
CTRL_FIELD_REF_INSTANTIATE(bool)
CTRL_FIELD_REF_INSTANTIATE(IntOrString)
CTRL_FIELD_REF_INSTANTIATE(Object)

#undef CTRL_FIELD_REF_INSTANTIATE

}  // namespace ctrl::scheme
