#include "ctrl/core/object_list.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <utility>

#include "ctrl/core/internal/json.hpp"

namespace ctrl {

namespace {

using internal::FindJsonMember;
using internal::JsonDocument;
using internal::JsonTypeName;
using internal::JsonValue;
using internal::JsonView;

constexpr std::string_view kListSuffix = "List";
// The scratch document of a List body is discarded once the items are copied out: larger chunks
// mean fewer allocations and waste nothing that lasts.
constexpr std::size_t kScratchChunkBytes = std::size_t{64} * 1024;

Status WrongType(std::string_view name, const JsonValue& value, std::string_view wanted) {
    return BadRequestError(std::string(name) + " is " + std::string(JsonTypeName(value)) + ", not " +
                           std::string(wanted));
}

// obj[key] into out when it is a string; a missing or null field leaves out empty.
Status ReadString(const JsonValue& obj, std::string_view key, std::string_view name, std::string& out) {
    const JsonValue* value = FindJsonMember(obj, key);
    if (value == nullptr || value->IsNull())
        return OkStatus();
    if (!value->IsString())
        return WrongType(name, *value, "a string");
    out = JsonView(*value);
    return OkStatus();
}

Status ReadMetadata(const JsonValue& root, std::string& resource_version, std::string& continue_token,
                    std::optional<int64_t>& remaining_item_count) {
    const JsonValue* metadata = FindJsonMember(root, "metadata");
    if (metadata == nullptr || metadata->IsNull())
        return OkStatus();
    if (!metadata->IsObject())
        return WrongType("metadata", *metadata, "an object");
    CTRL_RETURN_IF_ERROR(ReadString(*metadata, "resourceVersion", "metadata.resourceVersion", resource_version));
    CTRL_RETURN_IF_ERROR(ReadString(*metadata, "continue", "metadata.continue", continue_token));
    const JsonValue* remaining = FindJsonMember(*metadata, "remainingItemCount");
    if (remaining == nullptr || remaining->IsNull())
        return OkStatus();
    if (!remaining->IsInt64())
        return WrongType("metadata.remainingItemCount", *remaining, "an integer");
    remaining_item_count = remaining->GetInt64();
    return OkStatus();
}

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void WriteStringMember(Writer& writer, std::string_view key, std::string_view value) {
    if (value.empty())
        return;
    writer.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
    writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

}  // namespace

StatusOr<ObjectList> ObjectList::Parse(std::string_view json) {
    JsonDocument doc(kScratchChunkBytes);
    CTRL_RETURN_IF_ERROR(internal::ParseJson(json, doc));
    const JsonValue& root = doc.Root();
    if (!root.IsObject())
        return WrongType("a list", root, "an object");

    ObjectList list;
    CTRL_RETURN_IF_ERROR(ReadString(root, "apiVersion", "apiVersion", list.api_version_));
    CTRL_RETURN_IF_ERROR(ReadString(root, "kind", "kind", list.kind_));
    CTRL_RETURN_IF_ERROR(ReadMetadata(root, list.resource_version_, list.continue_, list.remaining_item_count_));

    const JsonValue* items = FindJsonMember(root, "items");
    if (items == nullptr || items->IsNull())
        return list;
    if (!items->IsArray())
        return WrongType("items", *items, "an array");
    list.items_.reserve(items->Size());
    for (rapidjson::SizeType i = 0; i < items->Size(); ++i) {
        const JsonValue& source = (*items)[i];
        if (!source.IsObject())
            return WrongType("items[" + std::to_string(i) + "]", source, "an object");
        Object& item = list.items_.emplace_back();
        JsonDocument& item_doc = item.Document();
        item_doc.doc.CopyFrom(source, item_doc.Allocator());
    }
    return list;
}

std::string ObjectList::ToJson() const {
    rapidjson::StringBuffer buffer(&JsonDocument::StackAllocator());
    Writer writer(buffer, &JsonDocument::StackAllocator());
    writer.StartObject();
    WriteStringMember(writer, "apiVersion", api_version_);
    WriteStringMember(writer, "kind", kind_);
    writer.Key("metadata");
    writer.StartObject();
    WriteStringMember(writer, "resourceVersion", resource_version_);
    WriteStringMember(writer, "continue", continue_);
    if (remaining_item_count_) {
        writer.Key("remainingItemCount");
        writer.Int64(*remaining_item_count_);
    }
    writer.EndObject();
    writer.Key("items");
    writer.StartArray();
    for (const Object& item : items_)
        item.Document().Root().Accept(writer);
    writer.EndArray();
    writer.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize());
}

ObjectList ObjectList::DeepCopy() const {
    ObjectList copy;
    copy.api_version_ = api_version_;
    copy.kind_ = kind_;
    copy.resource_version_ = resource_version_;
    copy.continue_ = continue_;
    copy.remaining_item_count_ = remaining_item_count_;
    copy.items_.reserve(items_.size());
    for (const Object& item : items_)
        copy.items_.push_back(item.DeepCopy());
    return copy;
}

StatusOr<GroupVersionKind> ObjectList::GetGroupVersionKind() const {
    return GroupVersionKind::FromApiVersionKind(api_version_, kind_);
}

void ObjectList::SetGroupVersionKind(const GroupVersionKind& gvk) {
    api_version_ = gvk.ApiVersion();
    kind_ = gvk.kind;
}

std::string_view ObjectList::ItemKind() const {
    const std::string_view kind = kind_;
    if (kind.size() <= kListSuffix.size() || !kind.ends_with(kListSuffix))
        return {};
    return kind.substr(0, kind.size() - kListSuffix.size());
}

StatusOr<GroupVersionKind> ObjectList::ItemGroupVersionKind() const {
    const std::string_view item_kind = ItemKind();
    if (item_kind.empty()) {
        return BadRequestError("list kind \"" + kind_ + "\" does not name its items' kind (want \"<Kind>List\")");
    }
    return GroupVersionKind::FromApiVersionKind(api_version_, item_kind);
}

void ObjectList::SetItemGroupVersionKind(const GroupVersionKind& item_gvk) {
    api_version_ = item_gvk.ApiVersion();
    kind_ = item_gvk.kind + std::string(kListSuffix);
}

Status ObjectList::FillItemTypeMeta() {
    const std::string_view item_kind = ItemKind();
    bool need_api_version = false;
    bool need_kind = false;
    for (const Object& item : items_) {
        need_api_version = need_api_version || item.ApiVersion().empty();
        need_kind = need_kind || item.Kind().empty();
    }
    if (need_api_version && api_version_.empty()) {
        return BadRequestError("list has no apiVersion to give its items");
    }
    if (need_kind && item_kind.empty()) {
        return BadRequestError("list kind \"" + kind_ + "\" does not name its items' kind (want \"<Kind>List\")");
    }
    for (Object& item : items_) {
        if (item.ApiVersion().empty())
            item.SetApiVersion(api_version_);
        if (item.Kind().empty())
            item.SetKind(item_kind);
    }
    return OkStatus();
}

}  // namespace ctrl
