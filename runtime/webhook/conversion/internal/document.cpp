#include "ctrl/webhook/conversion/internal/document.hpp"

#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/internal/json.hpp"

namespace ctrl::webhook::conversion::internal {
namespace {

using ctrl::internal::EraseJsonMember;
using ctrl::internal::FindJsonMember;
using ctrl::internal::JsonValue;
using ctrl::internal::JsonView;
using ctrl::internal::PoolAllocator;
using ctrl::internal::SetJsonMember;

bool IsIdentity(std::string_view member) {
    return member == "apiVersion" || member == "kind" || member == "metadata";
}

bool Same(const JsonValue* a, const JsonValue* b) {
    if (a == nullptr || b == nullptr)
        return a == b;
    return *a == *b;
}

const JsonValue* Member(const JsonValue* value, std::string_view name) {
    return value != nullptr && value->IsObject() ? FindJsonMember(*value, name) : nullptr;
}

// The member names of the objects among values, each once, in the order first met.
std::vector<std::string> MemberNames(std::initializer_list<const JsonValue*> values) {
    std::vector<std::string> names;
    for (const JsonValue* value : values) {
        if (value == nullptr || !value->IsObject())
            continue;
        for (auto it = value->MemberBegin(); it != value->MemberEnd(); ++it) {
            const std::string_view name = JsonView(it->name);
            bool seen = false;
            for (const std::string& known : names)
                seen = seen || known == name;
            if (!seen)
                names.emplace_back(name);
        }
    }
    return names;
}

// Writes the merge of the three values into out; false when the merged value is absent.
bool Merge(const JsonValue* base, const JsonValue* theirs, const JsonValue* mine, JsonValue& out,
           PoolAllocator& allocator) {
    if (Same(base, theirs)) {
        if (mine == nullptr)
            return false;
        out.CopyFrom(*mine, allocator);
        return true;
    }
    if (theirs == nullptr)
        return false;
    if (base == nullptr || mine == nullptr || !base->IsObject() || !theirs->IsObject() || !mine->IsObject()) {
        out.CopyFrom(*theirs, allocator);
        return true;
    }
    out.SetObject();
    for (const std::string& name : MemberNames({theirs, mine, base})) {
        JsonValue merged;
        if (Merge(Member(base, name), Member(theirs, name), Member(mine, name), merged, allocator))
            SetJsonMember(out, name, merged, allocator);
    }
    return true;
}

}  // namespace

Object ContentOf(const Object& object) {
    Object content;
    const JsonValue& root = object.Document().Root();
    if (!root.IsObject())
        return content;
    JsonValue& out = content.Document().Root();
    PoolAllocator& allocator = content.Document().Allocator();
    for (auto it = root.MemberBegin(); it != root.MemberEnd(); ++it) {
        const std::string_view name = JsonView(it->name);
        if (!IsIdentity(name))
            SetJsonMember(out, name, JsonValue(it->value, allocator), allocator);
    }
    return content;
}

void SetContent(Object& object, const Object& content) {
    JsonValue& root = object.Document().Root();
    PoolAllocator& allocator = object.Document().Allocator();
    if (!root.IsObject())
        root.SetObject();
    std::vector<std::string> stale;
    for (auto it = root.MemberBegin(); it != root.MemberEnd(); ++it) {
        if (!IsIdentity(JsonView(it->name)))
            stale.emplace_back(JsonView(it->name));
    }
    for (const std::string& name : stale)
        EraseJsonMember(root, name);
    const JsonValue& members = content.Document().Root();
    if (!members.IsObject())
        return;
    for (auto it = members.MemberBegin(); it != members.MemberEnd(); ++it) {
        const std::string_view name = JsonView(it->name);
        if (!IsIdentity(name))
            SetJsonMember(root, name, JsonValue(it->value, allocator), allocator);
    }
}

Object MergeThreeWay(const Object& base, const Object& theirs, const Object& mine) {
    Object merged;
    JsonValue& out = merged.Document().Root();
    if (!Merge(&base.Document().Root(), &theirs.Document().Root(), &mine.Document().Root(), out,
               merged.Document().Allocator()))
        out.SetObject();
    return merged;
}

std::optional<Object> ValueAt(const Object& object, FieldPath path) {
    const JsonValue* current = &object.Document().Root();
    for (std::string_view part : path.Parts()) {
        current = Member(current, part);
        if (current == nullptr)
            return std::nullopt;
    }
    Object value;
    value.Document().Root().CopyFrom(*current, value.Document().Allocator());
    return value;
}

}  // namespace ctrl::webhook::conversion::internal
