// Object's reads and writes by path (Nested*), and FieldPath.

#include <cmath>
#include <utility>

#include "ctrl/core/internal/json.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl {

namespace {

using internal::EraseJsonMember;
using internal::FindJsonMember;
using internal::JsonDocument;
using internal::JsonTypeName;
using internal::JsonValue;
using internal::JsonView;
using internal::MakeJsonString;
using internal::PoolAllocator;
using internal::SetJsonMember;

// The first `count` parts of path, for messages; "the value" when that is the root.
std::string PathName(FieldPath path, std::size_t count) {
    if (count == 0)
        return "the value";
    return FieldPath(path.Parts().first(count)).String();
}

Status NotFound(FieldPath path) {
    return NotFoundError(PathName(path, path.Parts().size()) + " not found");
}

// "<first count parts of path> is <actual type>, not <wanted>".
Status WrongType(FieldPath path, std::size_t count, const JsonValue& actual, std::string_view wanted) {
    return BadRequestError(PathName(path, count) + " is " + std::string(JsonTypeName(actual)) + ", not " +
                           std::string(wanted));
}

Status WrongElementType(FieldPath path, std::string_view element, const JsonValue& actual, std::string_view wanted) {
    return BadRequestError(PathName(path, path.Parts().size()) + "[" + std::string(element) + "] is " +
                           std::string(JsonTypeName(actual)) + ", not " + std::string(wanted));
}

// The value at path. A null anywhere on the way reads as missing.
StatusOr<const JsonValue*> Lookup(const JsonValue& root, FieldPath path) {
    const JsonValue* current = &root;
    const auto parts = path.Parts();
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (current->IsNull())
            return NotFound(path);
        if (!current->IsObject())
            return WrongType(path, i, *current, "an object");
        current = FindJsonMember(*current, parts[i]);
        if (current == nullptr)
            return NotFound(path);
    }
    if (current->IsNull())
        return NotFound(path);
    return current;
}

// The object that is to hold path's last field, with missing or null objects on the way created.
// Every error is found before the first change, so on error the document is unchanged.
StatusOr<JsonValue*> ParentForWrite(JsonDocument& doc, FieldPath path) {
    const auto parts = path.Parts();
    if (parts.empty())
        return BadRequestError("cannot set a field at an empty path");
    JsonValue* current = &doc.Root();
    if (current->IsNull())
        current->SetObject();
    if (!current->IsObject()) {
        return WrongType(path, 0, *current, "an object").Annotate("cannot set " + path.String());
    }
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        JsonValue* next = FindJsonMember(*current, parts[i]);
        if (next == nullptr) {
            SetJsonMember(*current, parts[i], JsonValue(rapidjson::kObjectType), doc.Allocator());
            next = &(current->MemberEnd() - 1)->value;
        } else if (next->IsNull()) {
            next->SetObject();
        } else if (!next->IsObject()) {
            return WrongType(path, i + 1, *next, "an object").Annotate("cannot set " + path.String());
        }
        current = next;
    }
    return current;
}

Status SetAt(JsonDocument& doc, FieldPath path, JsonValue& value) {
    CTRL_ASSIGN_OR_RETURN(JsonValue * parent, ParentForWrite(doc, path));
    SetJsonMember(*parent, path.Parts().back(), value, doc.Allocator());
    return OkStatus();
}

Object CopyOf(const JsonValue& value) {
    Object copy;
    JsonDocument& doc = copy.Document();
    doc.doc.CopyFrom(value, doc.Allocator());
    return copy;
}

}  // namespace

std::string FieldPath::String() const {
    std::string out;
    for (std::string_view part : parts_) {
        // A name that a dot would make ambiguous ("app.kubernetes.io/name", "") is bracketed.
        if (part.empty() || part.find('.') != std::string_view::npos) {
            out.append("[").append(part).append("]");
            continue;
        }
        if (!out.empty())
            out.push_back('.');
        out.append(part);
    }
    return out;
}

StatusOr<std::string> Object::NestedString(FieldPath path) const {
    CTRL_ASSIGN_OR_RETURN(const JsonValue* value, Lookup(Document().Root(), path));
    if (!value->IsString())
        return WrongType(path, path.Parts().size(), *value, "a string");
    return std::string(JsonView(*value));
}

StatusOr<int64_t> Object::NestedInt(FieldPath path) const {
    CTRL_ASSIGN_OR_RETURN(const JsonValue* value, Lookup(Document().Root(), path));
    if (value->IsInt64())
        return value->GetInt64();
    if (value->IsUint64()) {
        return BadRequestError(PathName(path, path.Parts().size()) + " is an integer beyond the int64 range");
    }
    return WrongType(path, path.Parts().size(), *value, "an integer");
}

StatusOr<double> Object::NestedFloat(FieldPath path) const {
    CTRL_ASSIGN_OR_RETURN(const JsonValue* value, Lookup(Document().Root(), path));
    if (!value->IsNumber())
        return WrongType(path, path.Parts().size(), *value, "a number");
    return value->GetDouble();
}

StatusOr<bool> Object::NestedBool(FieldPath path) const {
    CTRL_ASSIGN_OR_RETURN(const JsonValue* value, Lookup(Document().Root(), path));
    if (!value->IsBool())
        return WrongType(path, path.Parts().size(), *value, "a boolean");
    return value->GetBool();
}

StatusOr<std::vector<std::string>> Object::NestedStringSlice(FieldPath path) const {
    CTRL_ASSIGN_OR_RETURN(const JsonValue* value, Lookup(Document().Root(), path));
    if (!value->IsArray())
        return WrongType(path, path.Parts().size(), *value, "an array");
    std::vector<std::string> out;
    out.reserve(value->Size());
    for (rapidjson::SizeType i = 0; i < value->Size(); ++i) {
        const JsonValue& item = (*value)[i];
        if (!item.IsString())
            return WrongElementType(path, std::to_string(i), item, "a string");
        out.emplace_back(JsonView(item));
    }
    return out;
}

StatusOr<std::map<std::string, std::string>> Object::NestedStringMap(FieldPath path) const {
    CTRL_ASSIGN_OR_RETURN(const JsonValue* value, Lookup(Document().Root(), path));
    if (!value->IsObject())
        return WrongType(path, path.Parts().size(), *value, "an object");
    std::map<std::string, std::string> out;
    for (auto it = value->MemberBegin(); it != value->MemberEnd(); ++it) {
        if (!it->value.IsString())
            return WrongElementType(path, JsonView(it->name), it->value, "a string");
        out.insert_or_assign(std::string(JsonView(it->name)), std::string(JsonView(it->value)));
    }
    return out;
}

StatusOr<std::vector<Object>> Object::NestedSlice(FieldPath path) const {
    CTRL_ASSIGN_OR_RETURN(const JsonValue* value, Lookup(Document().Root(), path));
    if (!value->IsArray())
        return WrongType(path, path.Parts().size(), *value, "an array");
    std::vector<Object> out;
    out.reserve(value->Size());
    for (const JsonValue& item : value->GetArray())
        out.push_back(CopyOf(item));
    return out;
}

StatusOr<Object> Object::NestedMap(FieldPath path) const {
    CTRL_ASSIGN_OR_RETURN(const JsonValue* value, Lookup(Document().Root(), path));
    if (!value->IsObject())
        return WrongType(path, path.Parts().size(), *value, "an object");
    return CopyOf(*value);
}

bool Object::HasNestedField(FieldPath path) const {
    return Lookup(Document().Root(), path).Ok();
}

Status Object::SetNestedString(FieldPath path, std::string_view value) {
    JsonDocument& doc = Document();
    CTRL_ASSIGN_OR_RETURN(JsonValue * parent, ParentForWrite(doc, path));
    SetJsonMember(*parent, path.Parts().back(), MakeJsonString(value, doc.Allocator()), doc.Allocator());
    return OkStatus();
}

Status Object::SetNestedInt(FieldPath path, int64_t value) {
    JsonValue json(value);
    return SetAt(Document(), path, json);
}

Status Object::SetNestedFloat(FieldPath path, double value) {
    if (!std::isfinite(value)) {
        return BadRequestError("cannot set " + path.String() + " to " + std::to_string(value) +
                               ": JSON has no such number");
    }
    JsonValue json(value);
    return SetAt(Document(), path, json);
}

Status Object::SetNestedBool(FieldPath path, bool value) {
    JsonValue json(value);
    return SetAt(Document(), path, json);
}

Status Object::SetNestedStringSlice(FieldPath path, const std::vector<std::string>& value) {
    JsonDocument& doc = Document();
    CTRL_ASSIGN_OR_RETURN(JsonValue * parent, ParentForWrite(doc, path));
    JsonValue array(rapidjson::kArrayType);
    array.Reserve(static_cast<rapidjson::SizeType>(value.size()), doc.Allocator());
    for (const std::string& item : value)
        array.PushBack(MakeJsonString(item, doc.Allocator()), doc.Allocator());
    SetJsonMember(*parent, path.Parts().back(), array, doc.Allocator());
    return OkStatus();
}

Status Object::SetNestedStringMap(FieldPath path, const std::map<std::string, std::string>& value) {
    JsonDocument& doc = Document();
    CTRL_ASSIGN_OR_RETURN(JsonValue * parent, ParentForWrite(doc, path));
    JsonValue map(rapidjson::kObjectType);
    for (const auto& [key, text] : value) {
        JsonValue name = MakeJsonString(key, doc.Allocator());
        JsonValue item = MakeJsonString(text, doc.Allocator());
        map.AddMember(name, item, doc.Allocator());
    }
    SetJsonMember(*parent, path.Parts().back(), map, doc.Allocator());
    return OkStatus();
}

Status Object::SetNestedField(FieldPath path, const Object& value) {
    // Setting an object into itself copies what it was before the write.
    if (&value == this)
        return SetNestedField(path, value.DeepCopy());
    JsonDocument& doc = Document();
    CTRL_ASSIGN_OR_RETURN(JsonValue * parent, ParentForWrite(doc, path));
    JsonValue copy(value.Document().Root(), doc.Allocator());
    SetJsonMember(*parent, path.Parts().back(), copy, doc.Allocator());
    return OkStatus();
}

bool Object::RemoveNestedField(FieldPath path) {
    const auto parts = path.Parts();
    if (parts.empty())
        return false;
    JsonValue* current = &Document().Root();
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        if (!current->IsObject())
            return false;
        current = FindJsonMember(*current, parts[i]);
        if (current == nullptr)
            return false;
    }
    return current->IsObject() && EraseJsonMember(*current, parts.back());
}

}  // namespace ctrl
