#include "ctrl/core/object.hpp"

#include <utility>

#include "ctrl/core/internal/json.hpp"

namespace ctrl {

namespace {

using internal::EraseJsonMember;
using internal::FindJsonMember;
using internal::JsonDocument;
using internal::JsonStringMember;
using internal::JsonValue;
using internal::JsonView;
using internal::MakeJsonString;
using internal::PoolAllocator;
using internal::SetJsonMember;

// obj[key] as an object, created (or replacing a value of another type) when needed.
JsonValue& ObjectMember(JsonValue& obj, std::string_view key, PoolAllocator& allocator) {
    JsonValue* member = FindJsonMember(obj, key);
    if (member == nullptr) {
        SetJsonMember(obj, key, JsonValue(rapidjson::kObjectType), allocator);
        member = &(obj.MemberEnd() - 1)->value;
    } else if (!member->IsObject()) {
        member->SetObject();
    }
    return *member;
}

const JsonValue* Metadata(const Object& obj) {
    const JsonValue& root = obj.Document().Root();
    if (!root.IsObject())
        return nullptr;
    const JsonValue* metadata = FindJsonMember(root, "metadata");
    return metadata != nullptr && metadata->IsObject() ? metadata : nullptr;
}

const JsonValue* MetadataMember(const Object& obj, std::string_view key) {
    const JsonValue* metadata = Metadata(obj);
    return metadata != nullptr ? FindJsonMember(*metadata, key) : nullptr;
}

std::string_view MetadataString(const Object& obj, std::string_view key) {
    const JsonValue* value = MetadataMember(obj, key);
    return value != nullptr && value->IsString() ? JsonView(*value) : std::string_view();
}

JsonValue& MutableRoot(JsonDocument& doc) {
    if (!doc.Root().IsObject())
        doc.Root().SetObject();
    return doc.Root();
}

JsonValue& MutableMetadata(JsonDocument& doc) {
    return ObjectMember(MutableRoot(doc), "metadata", doc.Allocator());
}

void SetMetadataString(Object& obj, std::string_view key, std::string_view value) {
    JsonDocument& doc = obj.Document();
    SetJsonMember(MutableMetadata(doc), key, MakeJsonString(value, doc.Allocator()), doc.Allocator());
}

std::map<std::string, std::string> StringEntries(const JsonValue* map) {
    std::map<std::string, std::string> out;
    if (map == nullptr || !map->IsObject())
        return out;
    for (auto it = map->MemberBegin(); it != map->MemberEnd(); ++it) {
        if (it->value.IsString())
            out.emplace(JsonView(it->name), JsonView(it->value));
    }
    return out;
}

std::optional<std::string_view> StringEntry(const JsonValue* map, std::string_view key) {
    if (map == nullptr || !map->IsObject())
        return std::nullopt;
    const JsonValue* value = FindJsonMember(*map, key);
    if (value == nullptr || !value->IsString())
        return std::nullopt;
    return JsonView(*value);
}

JsonValue StringMapValue(const std::map<std::string, std::string>& entries, PoolAllocator& allocator) {
    JsonValue map(rapidjson::kObjectType);
    for (const auto& [key, value] : entries) {
        JsonValue name = MakeJsonString(key, allocator);
        JsonValue text = MakeJsonString(value, allocator);
        map.AddMember(name, text, allocator);
    }
    return map;
}

JsonValue StringArrayValue(const std::vector<std::string>& items, PoolAllocator& allocator) {
    JsonValue array(rapidjson::kArrayType);
    array.Reserve(static_cast<rapidjson::SizeType>(items.size()), allocator);
    for (const std::string& item : items)
        array.PushBack(MakeJsonString(item, allocator), allocator);
    return array;
}

// Sets metadata[key] to value, or removes it when value is an empty object or array.
void SetOrRemoveMetadataMember(Object& obj, std::string_view key, JsonValue&& value) {
    JsonDocument& doc = obj.Document();
    const bool empty = value.IsObject() ? value.MemberCount() == 0 : value.Size() == 0;
    if (empty) {
        if (JsonValue* metadata = doc.Root().IsObject() ? FindJsonMember(doc.Root(), "metadata") : nullptr;
            metadata != nullptr && metadata->IsObject()) {
            EraseJsonMember(*metadata, key);
        }
        return;
    }
    SetJsonMember(MutableMetadata(doc), key, value, doc.Allocator());
}

void SetStringEntry(Object& obj, std::string_view map_key, std::string_view key, std::string_view value) {
    JsonDocument& doc = obj.Document();
    JsonValue& map = ObjectMember(MutableMetadata(doc), map_key, doc.Allocator());
    SetJsonMember(map, key, MakeJsonString(value, doc.Allocator()), doc.Allocator());
}

std::optional<std::string> OptionalString(const JsonValue* value) {
    if (value == nullptr || !value->IsString())
        return std::nullopt;
    return std::string(JsonView(*value));
}

}  // namespace

Object::Object() : doc_(std::make_unique<internal::JsonDocument>()) {}
Object::~Object() = default;
Object::Object(Object&&) noexcept = default;
Object& Object::operator=(Object&&) noexcept = default;

internal::JsonDocument& Object::Document() {
    if (doc_ == nullptr)
        doc_ = std::make_unique<internal::JsonDocument>();
    return *doc_;
}

const internal::JsonDocument& Object::Document() const {
    static const internal::JsonDocument empty;
    return doc_ != nullptr ? *doc_ : empty;
}

StatusOr<Object> Object::Parse(std::string_view json) {
    Object obj;
    CTRL_RETURN_IF_ERROR(internal::ParseJson(json, *obj.doc_));
    return obj;
}

std::string Object::ToJson() const {
    return internal::WriteJson(Document().Root());
}

Object Object::DeepCopy() const {
    Object copy;
    copy.doc_->doc.CopyFrom(Document().Root(), copy.doc_->Allocator());
    return copy;
}

void Object::CopyFrom(const Object& other) {
    if (&other == this)
        return;
    // A fresh pool: the old content's memory goes with the old document.
    *this = other.DeepCopy();
}

bool Object::IsJsonObject() const {
    return Document().Root().IsObject();
}

bool operator==(const Object& a, const Object& b) {
    return a.Document().Root() == b.Document().Root();
}

std::string_view Object::ApiVersion() const {
    const JsonValue& root = Document().Root();
    return root.IsObject() ? JsonStringMember(root, "apiVersion") : std::string_view();
}

std::string_view Object::Kind() const {
    const JsonValue& root = Document().Root();
    return root.IsObject() ? JsonStringMember(root, "kind") : std::string_view();
}

void Object::SetApiVersion(std::string_view api_version) {
    JsonDocument& doc = Document();
    SetJsonMember(MutableRoot(doc), "apiVersion", MakeJsonString(api_version, doc.Allocator()), doc.Allocator());
}

void Object::SetKind(std::string_view kind) {
    JsonDocument& doc = Document();
    SetJsonMember(MutableRoot(doc), "kind", MakeJsonString(kind, doc.Allocator()), doc.Allocator());
}

StatusOr<GroupVersionKind> Object::GetGroupVersionKind() const {
    return GroupVersionKind::FromApiVersionKind(ApiVersion(), Kind());
}

void Object::SetGroupVersionKind(const GroupVersionKind& gvk) {
    SetApiVersion(gvk.ApiVersion());
    SetKind(gvk.kind);
}

std::string_view Object::Name() const {
    return MetadataString(*this, "name");
}
std::string_view Object::GenerateName() const {
    return MetadataString(*this, "generateName");
}
std::string_view Object::Namespace() const {
    return MetadataString(*this, "namespace");
}
std::string_view Object::Uid() const {
    return MetadataString(*this, "uid");
}
std::string_view Object::ResourceVersion() const {
    return MetadataString(*this, "resourceVersion");
}

int64_t Object::Generation() const {
    const JsonValue* value = MetadataMember(*this, "generation");
    return value != nullptr && value->IsInt64() ? value->GetInt64() : 0;
}

std::optional<std::string> Object::CreationTimestamp() const {
    return OptionalString(MetadataMember(*this, "creationTimestamp"));
}

std::optional<std::string> Object::DeletionTimestamp() const {
    return OptionalString(MetadataMember(*this, "deletionTimestamp"));
}

void Object::SetName(std::string_view name) {
    SetMetadataString(*this, "name", name);
}
void Object::SetGenerateName(std::string_view generate_name) {
    SetMetadataString(*this, "generateName", generate_name);
}
void Object::SetNamespace(std::string_view namespace_name) {
    SetMetadataString(*this, "namespace", namespace_name);
}
void Object::SetUid(std::string_view uid) {
    SetMetadataString(*this, "uid", uid);
}
void Object::SetResourceVersion(std::string_view resource_version) {
    SetMetadataString(*this, "resourceVersion", resource_version);
}

void Object::SetGeneration(int64_t generation) {
    JsonDocument& doc = Document();
    SetJsonMember(MutableMetadata(doc), "generation", JsonValue(generation), doc.Allocator());
}

std::map<std::string, std::string> Object::Labels() const {
    return StringEntries(MetadataMember(*this, "labels"));
}

std::optional<std::string_view> Object::Label(std::string_view key) const {
    return StringEntry(MetadataMember(*this, "labels"), key);
}

void Object::SetLabels(const std::map<std::string, std::string>& labels) {
    SetOrRemoveMetadataMember(*this, "labels", StringMapValue(labels, Document().Allocator()));
}

void Object::SetLabel(std::string_view key, std::string_view value) {
    SetStringEntry(*this, "labels", key, value);
}

std::map<std::string, std::string> Object::Annotations() const {
    return StringEntries(MetadataMember(*this, "annotations"));
}

std::optional<std::string_view> Object::Annotation(std::string_view key) const {
    return StringEntry(MetadataMember(*this, "annotations"), key);
}

void Object::SetAnnotations(const std::map<std::string, std::string>& annotations) {
    SetOrRemoveMetadataMember(*this, "annotations", StringMapValue(annotations, Document().Allocator()));
}

void Object::SetAnnotation(std::string_view key, std::string_view value) {
    SetStringEntry(*this, "annotations", key, value);
}

std::vector<OwnerReference> Object::OwnerReferences() const {
    std::vector<OwnerReference> refs;
    const JsonValue* list = MetadataMember(*this, "ownerReferences");
    if (list == nullptr || !list->IsArray())
        return refs;
    refs.reserve(list->Size());
    for (const JsonValue& item : list->GetArray()) {
        if (!item.IsObject())
            continue;
        OwnerReference& ref = refs.emplace_back();
        ref.api_version = JsonStringMember(item, "apiVersion");
        ref.kind = JsonStringMember(item, "kind");
        ref.name = JsonStringMember(item, "name");
        ref.uid = JsonStringMember(item, "uid");
        if (const JsonValue* v = FindJsonMember(item, "controller"); v != nullptr && v->IsBool()) {
            ref.controller = v->GetBool();
        }
        if (const JsonValue* v = FindJsonMember(item, "blockOwnerDeletion"); v != nullptr && v->IsBool()) {
            ref.block_owner_deletion = v->GetBool();
        }
    }
    return refs;
}

void Object::SetOwnerReferences(const std::vector<OwnerReference>& refs) {
    PoolAllocator& allocator = Document().Allocator();
    JsonValue list(rapidjson::kArrayType);
    list.Reserve(static_cast<rapidjson::SizeType>(refs.size()), allocator);
    for (const OwnerReference& ref : refs) {
        JsonValue item(rapidjson::kObjectType);
        SetJsonMember(item, "apiVersion", MakeJsonString(ref.api_version, allocator), allocator);
        SetJsonMember(item, "kind", MakeJsonString(ref.kind, allocator), allocator);
        SetJsonMember(item, "name", MakeJsonString(ref.name, allocator), allocator);
        SetJsonMember(item, "uid", MakeJsonString(ref.uid, allocator), allocator);
        if (ref.controller)
            SetJsonMember(item, "controller", JsonValue(*ref.controller), allocator);
        if (ref.block_owner_deletion) {
            SetJsonMember(item, "blockOwnerDeletion", JsonValue(*ref.block_owner_deletion), allocator);
        }
        list.PushBack(item, allocator);
    }
    SetOrRemoveMetadataMember(*this, "ownerReferences", std::move(list));
}

std::vector<std::string> Object::Finalizers() const {
    std::vector<std::string> out;
    const JsonValue* list = MetadataMember(*this, "finalizers");
    if (list == nullptr || !list->IsArray())
        return out;
    for (const JsonValue& item : list->GetArray()) {
        if (item.IsString())
            out.emplace_back(JsonView(item));
    }
    return out;
}

void Object::SetFinalizers(const std::vector<std::string>& finalizers) {
    SetOrRemoveMetadataMember(*this, "finalizers", StringArrayValue(finalizers, Document().Allocator()));
}

bool Object::AddFinalizer(std::string_view finalizer) {
    JsonDocument& doc = Document();
    JsonValue& metadata = MutableMetadata(doc);
    JsonValue* list = FindJsonMember(metadata, "finalizers");
    if (list == nullptr || !list->IsArray()) {
        SetJsonMember(metadata, "finalizers", JsonValue(rapidjson::kArrayType), doc.Allocator());
        list = FindJsonMember(metadata, "finalizers");
    }
    for (const JsonValue& item : list->GetArray()) {
        if (item.IsString() && JsonView(item) == finalizer)
            return false;
    }
    list->PushBack(MakeJsonString(finalizer, doc.Allocator()), doc.Allocator());
    return true;
}

bool Object::RemoveFinalizer(std::string_view finalizer) {
    JsonValue& root = Document().Root();
    JsonValue* metadata = root.IsObject() ? FindJsonMember(root, "metadata") : nullptr;
    if (metadata == nullptr || !metadata->IsObject())
        return false;
    JsonValue* list = FindJsonMember(*metadata, "finalizers");
    if (list == nullptr || !list->IsArray())
        return false;
    bool changed = false;
    for (auto it = list->Begin(); it != list->End();) {
        if (it->IsString() && JsonView(*it) == finalizer) {
            it = list->Erase(it);
            changed = true;
        } else {
            ++it;
        }
    }
    if (changed && list->Empty())
        EraseJsonMember(*metadata, "finalizers");
    return changed;
}

bool Object::HasManagedFields() const {
    const JsonValue* value = MetadataMember(*this, "managedFields");
    return value != nullptr && !value->IsNull();
}

void Object::RemoveManagedFields() {
    JsonValue& root = Document().Root();
    JsonValue* metadata = root.IsObject() ? FindJsonMember(root, "metadata") : nullptr;
    if (metadata != nullptr && metadata->IsObject())
        EraseJsonMember(*metadata, "managedFields");
}

}  // namespace ctrl
