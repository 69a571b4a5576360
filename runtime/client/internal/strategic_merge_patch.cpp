#include "ctrl/client/internal/strategic_merge_patch.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/client/internal/patch_json.hpp"

namespace ctrl::client::internal {
namespace {

using ctrl::internal::FindJsonMember;
using ctrl::internal::JsonView;
using ctrl::internal::MakeJsonString;
using ctrl::internal::PoolAllocator;

constexpr std::string_view kDirectiveMarker = "$patch";
constexpr std::string_view kDeleteDirective = "delete";
constexpr std::string_view kRetainKeysDirective = "$retainKeys";
constexpr std::string_view kDeleteFromPrimitiveListPrefix = "$deleteFromPrimitiveList/";
constexpr std::string_view kSetElementOrderPrefix = "$setElementOrder/";

// The Go type a JSON value decodes to in apimachinery (integers as int64, other numbers as
// float64): a change of type replaces the value whole.
enum class GoType { kNull, kBool, kInt, kFloat, kString, kArray, kObject };

GoType TypeOf(const JsonValue& value) {
    if (value.IsNull())
        return GoType::kNull;
    if (value.IsBool())
        return GoType::kBool;
    if (value.IsNumber())
        return value.IsInt64() ? GoType::kInt : GoType::kFloat;
    if (value.IsString())
        return GoType::kString;
    return value.IsArray() ? GoType::kArray : GoType::kObject;
}

// fmt.Sprintf("%v", value) for the scalars Go sorts and matches list elements by.
std::string GoString(const JsonValue& value) {
    if (value.IsString())
        return std::string(JsonView(value));
    if (value.IsInt64())
        return std::to_string(value.GetInt64());
    if (value.IsNull())
        return "<nil>";
    return ctrl::internal::WriteJson(value);
}

// A list element with the text of its merge key (or of itself, for primitives) and its index.
struct Element {
    const JsonValue* value;
    const JsonValue* key;
    std::string key_string;
    std::size_t index;
};

void SortByKeyString(std::vector<Element>& elements) {
    std::stable_sort(elements.begin(), elements.end(),
                     [](const Element& a, const Element& b) { return a.key_string < b.key_string; });
}

bool HasDroppedField(const JsonValue& original, const JsonValue& modified) {
    for (auto it = original.MemberBegin(); it != original.MemberEnd(); ++it) {
        if (!it->value.IsNull() && FindJsonMember(modified, JsonView(it->name)) == nullptr)
            return true;
    }
    return false;
}

// apimachinery's deduplicateScalars, step for step: a duplicate is overwritten by the last value,
// so the order of what remains is Go's too.
void DeduplicateScalars(std::vector<const JsonValue*>& values) {
    std::size_t length = values.size();
    for (std::size_t i = 0; i + 1 < length; ++i) {
        for (std::size_t j = i + 1; j < length; ++j) {
            if (*values[i] == *values[j]) {
                values[j] = values[length - 1];
                --length;
                --j;
            }
        }
    }
    values.resize(length);
}

class TwoWayDiff {
  public:
    explicit TwoWayDiff(PoolAllocator& allocator) : allocator_(allocator) {}

    // Adds to patch (an empty object) what turns original into modified, two objects of the type
    // schema describes (nullptr: a type without patch metadata).
    Status DiffMaps(const JsonValue& original, const JsonValue& modified, const PatchSchema* schema, bool retain_keys,
                    JsonValue& patch) {
        std::vector<std::string_view> retained;
        for (auto it = modified.MemberBegin(); it != modified.MemberEnd(); ++it) {
            const std::string_view key = JsonView(it->name);
            const JsonValue& after = it->value;
            if (retain_keys && !after.IsNull())
                retained.push_back(key);
            const JsonValue* before = FindJsonMember(original, key);
            if (before != nullptr && key == kDirectiveMarker) {
                if (!before->IsString() || !after.IsString())
                    return BadRequestError("invalid value for the special key $patch at " + Where(key));
                if (*before != after)
                    AddCopy(patch, key, after);
                continue;
            }
            if (before == nullptr || TypeOf(*before) != TypeOf(after)) {
                AddCopy(patch, key, after);
                continue;
            }
            const PatchField* field = FindPatchField(schema, key);
            const std::size_t length = path_.size();
            AppendPath(key);
            Status status;
            if (after.IsObject()) {
                JsonValue nested(rapidjson::kObjectType);
                status = DiffMaps(*before, after, field ? field->schema : nullptr, field && field->retain_keys, nested);
                if (status.Ok() && nested.MemberCount() > 0)
                    Add(patch, key, nested);
            } else if (after.IsArray() && field != nullptr && field->merge) {
                status = DiffLists(key, *before, after, *field, patch);
            } else if (*before != after) {
                AddCopy(patch, key, after);
            }
            path_.resize(length);
            CTRL_RETURN_IF_ERROR(status);
        }
        for (auto it = original.MemberBegin(); it != original.MemberEnd(); ++it) {
            if (FindJsonMember(modified, JsonView(it->name)) == nullptr) {
                JsonValue null_value;
                Add(patch, JsonView(it->name), null_value);
            }
        }
        if (!retained.empty() && (patch.MemberCount() > 0 || HasDroppedField(original, modified))) {
            std::stable_sort(retained.begin(), retained.end());
            JsonValue list(rapidjson::kArrayType);
            for (std::string_view name : retained)
                list.PushBack(MakeJsonString(name, allocator_), allocator_);
            Add(patch, kRetainKeysDirective, list);
        }
        return OkStatus();
    }

  private:
    // A list with patchStrategy merge (the caller has appended key to path_).
    Status DiffLists(std::string_view key, const JsonValue& original, const JsonValue& modified,
                     const PatchField& field, JsonValue& patch) {
        if (original.Empty()) {
            if (!modified.Empty())
                AddCopy(patch, key, modified);
            return OkStatus();
        }
        GoType element_type = GoType::kNull;
        for (const JsonValue* list : {&original, &modified}) {
            for (const JsonValue& element : list->GetArray()) {
                const GoType type = TypeOf(element);
                if (type == GoType::kArray)
                    return BadRequestError(Where() + " is a list of lists, which a strategic merge patch cannot merge");
                if (element_type != GoType::kNull && type != element_type)
                    return BadRequestError("the elements of " + Where() + " are not all of the same type");
                element_type = type;
            }
        }
        if (element_type == GoType::kObject)
            return DiffListsOfMaps(key, original, modified, field, patch);
        DiffListsOfScalars(key, original, modified, patch);
        return OkStatus();
    }

    Status DiffListsOfMaps(std::string_view key, const JsonValue& original, const JsonValue& modified,
                           const PatchField& field, JsonValue& patch) {
        std::vector<Element> before;
        std::vector<Element> after;
        CTRL_RETURN_IF_ERROR(KeyedElements(original, field.merge_key, before));
        CTRL_RETURN_IF_ERROR(KeyedElements(modified, field.merge_key, after));
        bool order_same = before.size() == after.size();
        for (std::size_t i = 0; order_same && i < before.size(); ++i)
            order_same = *before[i].key == *after[i].key;
        SortByKeyString(before);
        SortByKeyString(after);

        std::vector<std::pair<std::size_t, JsonValue>> changes;  // (index in modified, patch)
        JsonValue deletions(rapidjson::kArrayType);
        std::size_t b = 0;
        std::size_t a = 0;
        while (b < before.size() || a < after.size()) {
            if (b < before.size() && a < after.size() && before[b].key_string == after[a].key_string) {
                JsonValue nested(rapidjson::kObjectType);
                const std::size_t length = path_.size();
                path_.append("[").append(std::to_string(after[a].index)).append("]");
                Status status = DiffMaps(*before[b].value, *after[a].value, field.schema, field.retain_keys, nested);
                path_.resize(length);
                CTRL_RETURN_IF_ERROR(status);
                if (nested.MemberCount() > 0) {
                    JsonValue key_value(*after[a].key, allocator_);
                    ctrl::internal::SetJsonMember(nested, field.merge_key, key_value, allocator_);
                    changes.emplace_back(after[a].index, std::move(nested));
                }
                ++b;
                ++a;
            } else if (b == before.size() || (a < after.size() && before[b].key_string > after[a].key_string)) {
                changes.emplace_back(after[a].index, JsonValue(*after[a].value, allocator_));
                ++a;
            } else {
                JsonValue directive(rapidjson::kObjectType);
                AddCopy(directive, field.merge_key, *before[b].key);
                JsonValue marker = MakeJsonString(kDeleteDirective, allocator_);
                Add(directive, kDirectiveMarker, marker);
                deletions.PushBack(directive, allocator_);
                ++b;
            }
        }
        std::stable_sort(changes.begin(), changes.end(),
                         [](const auto& x, const auto& y) { return x.first < y.first; });
        JsonValue list(rapidjson::kArrayType);
        for (auto& change : changes)
            list.PushBack(change.second, allocator_);
        for (JsonValue& deletion : deletions.GetArray())
            list.PushBack(deletion, allocator_);
        if (list.Empty() && order_same)
            return OkStatus();
        JsonValue order(rapidjson::kArrayType);
        for (const JsonValue& element : modified.GetArray()) {
            JsonValue entry(rapidjson::kObjectType);
            AddCopy(entry, field.merge_key, *FindJsonMember(element, field.merge_key));
            order.PushBack(entry, allocator_);
        }
        if (!list.Empty())
            Add(patch, key, list);
        if (!order.Empty())
            Add(patch, std::string(kSetElementOrderPrefix) + std::string(key), order);
        return OkStatus();
    }

    void DiffListsOfScalars(std::string_view key, const JsonValue& original, const JsonValue& modified,
                            JsonValue& patch) {
        std::vector<Element> before;
        std::vector<Element> after;
        for (const JsonValue& value : original.GetArray())
            before.push_back({&value, &value, GoString(value), before.size()});
        for (const JsonValue& value : modified.GetArray())
            after.push_back({&value, &value, GoString(value), after.size()});
        SortByKeyString(before);
        SortByKeyString(after);

        std::vector<Element> additions;
        std::vector<const JsonValue*> deletions;
        std::size_t b = 0;
        std::size_t a = 0;
        while (b < before.size() || a < after.size()) {
            if (b < before.size() && a < after.size() && before[b].key_string == after[a].key_string) {
                ++b;
                ++a;
            } else if (b == before.size() || (a < after.size() && before[b].key_string > after[a].key_string)) {
                additions.push_back(after[a++]);
            } else {
                deletions.push_back(before[b++].value);
            }
        }
        // Go orders the additions by the index of the first equal value in modified.
        for (Element& addition : additions) {
            for (std::size_t i = 0; i < modified.Size(); ++i) {
                if (modified[static_cast<rapidjson::SizeType>(i)] == *addition.value) {
                    addition.index = i;
                    break;
                }
            }
        }
        std::stable_sort(additions.begin(), additions.end(),
                         [](const Element& x, const Element& y) { return x.index < y.index; });
        DeduplicateScalars(deletions);

        if (!additions.empty()) {
            JsonValue list(rapidjson::kArrayType);
            for (const Element& addition : additions)
                list.PushBack(JsonValue(*addition.value, allocator_), allocator_);
            Add(patch, key, list);
        }
        if (!deletions.empty()) {
            JsonValue list(rapidjson::kArrayType);
            for (const JsonValue* deletion : deletions)
                list.PushBack(JsonValue(*deletion, allocator_), allocator_);
            Add(patch, std::string(kDeleteFromPrimitiveListPrefix) + std::string(key), list);
        }
        if ((!deletions.empty() || original != modified) && !modified.Empty())
            AddCopy(patch, std::string(kSetElementOrderPrefix) + std::string(key), modified);
    }

    // The elements of list with their merge keys; BadRequest when one is not an object with it.
    Status KeyedElements(const JsonValue& list, std::string_view merge_key, std::vector<Element>& out) const {
        for (const JsonValue& element : list.GetArray()) {
            const JsonValue* key = element.IsObject() ? FindJsonMember(element, merge_key) : nullptr;
            if (key == nullptr) {
                return BadRequestError(Where() + "[" + std::to_string(out.size()) + "] has no merge key \"" +
                                       std::string(merge_key) + "\"");
            }
            out.push_back({&element, key, GoString(*key), out.size()});
        }
        return OkStatus();
    }

    void Add(JsonValue& patch, std::string_view key, JsonValue& value) {
        JsonValue name = MakeJsonString(key, allocator_);
        patch.AddMember(name, value, allocator_);
    }
    void AddCopy(JsonValue& patch, std::string_view key, const JsonValue& value) {
        JsonValue copy(value, allocator_);
        Add(patch, key, copy);
    }

    void AppendPath(std::string_view key) {
        if (!path_.empty())
            path_.push_back('.');
        path_.append(key);
    }
    std::string Where(std::string_view key = {}) const {
        std::string where = path_;
        if (!key.empty())
            where.append(where.empty() ? "" : ".").append(key);
        return where.empty() ? "the object" : where;
    }

    PoolAllocator& allocator_;
    std::string path_;  // of the values being compared, for messages: "spec.containers[1].env"
};

}  // namespace

StatusOr<std::string> CreateTwoWayStrategicMergePatch(const Object& original, const Object& modified,
                                                      const PatchSchema& schema) {
    const JsonValue& before = original.Document().Root();
    const JsonValue& after = modified.Document().Root();
    if (!before.IsObject() || !after.IsObject()) {
        return BadRequestError(
            "cannot compute a strategic merge patch: the original and the modified object must be JSON objects");
    }
    ctrl::internal::JsonDocument patch;
    TwoWayDiff diff(patch.Allocator());
    CTRL_RETURN_IF_ERROR(diff.DiffMaps(before, after, &schema, false, patch.Root()));
    return WriteSortedJson(patch.Root());
}

}  // namespace ctrl::client::internal
