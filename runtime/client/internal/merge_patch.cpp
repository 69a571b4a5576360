#include "ctrl/client/internal/merge_patch.hpp"

#include "ctrl/client/internal/patch_json.hpp"

namespace ctrl::client::internal {
namespace {

using ctrl::internal::FindJsonMember;
using ctrl::internal::JsonView;
using ctrl::internal::PoolAllocator;

// Adds to patch (an empty object) the members that turn original into modified.
void DiffObjects(const JsonValue& original, const JsonValue& modified, JsonValue& patch, PoolAllocator& allocator) {
    for (auto it = modified.MemberBegin(); it != modified.MemberEnd(); ++it) {
        const JsonValue* before = FindJsonMember(original, JsonView(it->name));
        if (before != nullptr && before->IsObject() && it->value.IsObject()) {
            JsonValue nested(rapidjson::kObjectType);
            DiffObjects(*before, it->value, nested, allocator);
            if (nested.MemberCount() > 0)
                patch.AddMember(JsonValue(it->name, allocator), nested, allocator);
        } else if (before == nullptr || *before != it->value) {
            patch.AddMember(JsonValue(it->name, allocator), JsonValue(it->value, allocator), allocator);
        }
    }
    for (auto it = original.MemberBegin(); it != original.MemberEnd(); ++it) {
        if (FindJsonMember(modified, JsonView(it->name)) == nullptr)
            patch.AddMember(JsonValue(it->name, allocator), JsonValue(), allocator);
    }
}

}  // namespace

StatusOr<std::string> CreateMergePatch(const Object& original, const Object& modified) {
    const JsonValue& before = original.Document().Root();
    const JsonValue& after = modified.Document().Root();
    if (!before.IsObject() || !after.IsObject())
        return BadRequestError(
            "cannot compute a merge patch: the original and the modified object must be JSON objects");
    ctrl::internal::JsonDocument patch;
    DiffObjects(before, after, patch.Root(), patch.Allocator());
    return WriteSortedJson(patch.Root());
}

}  // namespace ctrl::client::internal
