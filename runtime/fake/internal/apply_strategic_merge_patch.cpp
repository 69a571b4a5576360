// ApplyStrategicMergePatch: apimachinery's strategicpatch.StrategicMergePatch for the two-way
// patches ctrl (and kubectl) compute, driven by the kind's patch metadata.
#include <string>
#include <utility>

#include "ctrl/core/internal/json.hpp"
#include "ctrl/fake/internal/apply_patch.hpp"

namespace ctrl::fake::internal {
namespace {

using client::internal::FindPatchField;
using client::internal::PatchField;
using client::internal::PatchSchema;
using ctrl::internal::EraseJsonMember;
using ctrl::internal::FindJsonMember;
using ctrl::internal::JsonDocument;
using ctrl::internal::JsonValue;
using ctrl::internal::JsonView;
using ctrl::internal::PoolAllocator;
using ctrl::internal::SetJsonMember;

constexpr std::string_view kPatch = "$patch";
constexpr std::string_view kRetainKeys = "$retainKeys";
constexpr std::string_view kSetElementOrder = "$setElementOrder/";
constexpr std::string_view kDeleteFromPrimitiveList = "$deleteFromPrimitiveList/";

void MergeObject(JsonValue& target, const JsonValue& patch, const PatchSchema* schema, PoolAllocator& allocator);

const PatchSchema* SchemaOf(const PatchField* field) {
    return field == nullptr ? nullptr : field->schema;
}

bool SameKey(const JsonValue& element, std::string_view merge_key, const JsonValue& key) {
    if (!element.IsObject())
        return false;
    const JsonValue* value = FindJsonMember(element, merge_key);
    return value != nullptr && *value == key;
}

// Where in list the element with key (a merge key's value) or equal value (a primitive) is.
std::optional<rapidjson::SizeType> IndexOf(const JsonValue& list, std::string_view merge_key, const JsonValue& key) {
    for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
        if (merge_key.empty() ? list[i] == key : SameKey(list[i], merge_key, key))
            return i;
    }
    return std::nullopt;
}

// A merge list: elements with a merge key merge into the element of that key (or are appended),
// "$patch": "delete" elements remove theirs; primitives are added when missing.
void MergeList(JsonValue& target, const JsonValue& patch, const PatchField& field, PoolAllocator& allocator) {
    for (const JsonValue& element : patch.GetArray()) {
        if (field.merge_key.empty() || !element.IsObject()) {
            if (!IndexOf(target, {}, element))
                target.PushBack(JsonValue(element, allocator), allocator);
            continue;
        }
        const JsonValue* key = FindJsonMember(element, field.merge_key);
        if (key == nullptr)
            continue;
        std::optional<rapidjson::SizeType> at = IndexOf(target, field.merge_key, *key);
        if (ctrl::internal::JsonStringMember(element, kPatch) == "delete") {
            if (at)
                target.Erase(target.Begin() + *at);
            continue;
        }
        if (at) {
            MergeObject(target[*at], element, field.schema, allocator);
        } else {
            JsonValue added(rapidjson::kObjectType);
            MergeObject(added, element, field.schema, allocator);
            target.PushBack(added, allocator);
        }
    }
}

// Reorders list as order says (merge keys, or values for primitives); elements order does not
// name keep their relative order after the named ones.
void SetElementOrder(JsonValue& list, const JsonValue& order, std::string_view merge_key, PoolAllocator& allocator) {
    JsonValue sorted(rapidjson::kArrayType);
    for (const JsonValue& entry : order.GetArray()) {
        const JsonValue* key = &entry;
        if (!merge_key.empty()) {
            key = entry.IsObject() ? FindJsonMember(entry, merge_key) : nullptr;
            if (key == nullptr)
                continue;
        }
        if (std::optional<rapidjson::SizeType> at = IndexOf(list, merge_key, *key)) {
            sorted.PushBack(JsonValue(list[*at], allocator), allocator);
            list.Erase(list.Begin() + *at);
        }
    }
    for (JsonValue& rest : list.GetArray())
        sorted.PushBack(JsonValue(rest, allocator), allocator);
    list.Swap(sorted);
}

void ApplyDirectives(JsonValue& target, const JsonValue& patch, const PatchSchema* schema, PoolAllocator& allocator) {
    for (auto it = patch.MemberBegin(); it != patch.MemberEnd(); ++it) {
        const std::string_view name = JsonView(it->name);
        if (name.starts_with(kDeleteFromPrimitiveList) && it->value.IsArray()) {
            JsonValue* list = FindJsonMember(target, name.substr(kDeleteFromPrimitiveList.size()));
            if (list == nullptr || !list->IsArray())
                continue;
            for (const JsonValue& value : it->value.GetArray()) {
                while (std::optional<rapidjson::SizeType> at = IndexOf(*list, {}, value))
                    list->Erase(list->Begin() + *at);
            }
        } else if (name.starts_with(kSetElementOrder) && it->value.IsArray()) {
            const std::string_view field_name = name.substr(kSetElementOrder.size());
            JsonValue* list = FindJsonMember(target, field_name);
            const PatchField* field = FindPatchField(schema, field_name);
            if (list != nullptr && list->IsArray())
                SetElementOrder(*list, it->value, field == nullptr ? std::string_view() : field->merge_key, allocator);
        }
    }
    const JsonValue* retain = FindJsonMember(patch, kRetainKeys);
    if (retain == nullptr || !retain->IsArray())
        return;
    std::vector<std::string> dropped;
    for (auto it = target.MemberBegin(); it != target.MemberEnd(); ++it) {
        const std::string_view name = JsonView(it->name);
        bool kept = false;
        for (const JsonValue& key : retain->GetArray())
            kept = kept || (key.IsString() && JsonView(key) == name);
        if (!kept)
            dropped.emplace_back(name);
    }
    for (const std::string& name : dropped)
        EraseJsonMember(target, name);
}

void MergeObject(JsonValue& target, const JsonValue& patch, const PatchSchema* schema, PoolAllocator& allocator) {
    if (!target.IsObject())
        target.SetObject();
    if (ctrl::internal::JsonStringMember(patch, kPatch) == "replace") {
        target.CopyFrom(patch, allocator);
        EraseJsonMember(target, kPatch);
        return;
    }
    for (auto it = patch.MemberBegin(); it != patch.MemberEnd(); ++it) {
        const std::string_view name = JsonView(it->name);
        if (name.starts_with("$"))
            continue;
        const JsonValue& value = it->value;
        const PatchField* field = FindPatchField(schema, name);
        JsonValue* existing = FindJsonMember(target, name);
        if (value.IsNull() || (value.IsObject() && ctrl::internal::JsonStringMember(value, kPatch) == "delete")) {
            EraseJsonMember(target, name);
        } else if (value.IsObject()) {
            if (existing != nullptr && existing->IsObject()) {
                MergeObject(*existing, value, SchemaOf(field), allocator);
            } else {
                JsonValue added(rapidjson::kObjectType);
                MergeObject(added, value, SchemaOf(field), allocator);
                SetJsonMember(target, name, added, allocator);
            }
        } else if (value.IsArray() && field != nullptr && field->merge) {
            if (existing == nullptr || !existing->IsArray()) {
                SetJsonMember(target, name, JsonValue(rapidjson::kArrayType), allocator);
                existing = FindJsonMember(target, name);
            }
            MergeList(*existing, value, *field, allocator);
        } else {
            SetJsonMember(target, name, JsonValue(value, allocator), allocator);
        }
    }
    ApplyDirectives(target, patch, schema, allocator);
}

}  // namespace

Status ApplyStrategicMergePatch(Object& object, std::string_view patch, const PatchSchema& schema) {
    JsonDocument parsed;
    CTRL_RETURN_IF_ERROR(ctrl::internal::ParseJson(patch, parsed));
    if (!parsed.Root().IsObject())
        return BadRequestError("a strategic merge patch must be a JSON object");
    Object result = object.DeepCopy();
    MergeObject(result.Document().Root(), parsed.Root(), &schema, result.Document().Allocator());
    object = std::move(result);
    return OkStatus();
}

}  // namespace ctrl::fake::internal
