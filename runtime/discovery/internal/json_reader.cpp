#include "ctrl/discovery/internal/json_reader.hpp"

#include <utility>

#include "ctrl/core/status_or.hpp"

namespace ctrl::discovery::internal {

using ctrl::internal::JsonTypeName;
using ctrl::internal::JsonView;

void JsonPath::Append(std::string& out) const {
    if (parent_ != nullptr)
        parent_->Append(out);
    if (index_ != kNoIndex) {
        out += '[';
        out += std::to_string(index_);
        out += ']';
        if (labelled_) {
            out += "(\"";
            out += label_;
            out += "\")";
        }
    } else if (!key_.empty()) {
        if (!out.empty())
            out += '.';
        out += key_;
    }
}

std::string JsonPath::String() const {
    std::string out;
    Append(out);
    return out.empty() ? std::string("the document") : out;
}

Status FieldReader::Error(const JsonPath& path, std::string_view problem) const {
    std::string message = "malformed discovery document (";
    message += document_;
    message += "): ";
    message += path.String();
    message += ": ";
    message += problem;
    return BadRequestError(std::move(message));
}

Status FieldReader::TypeError(const JsonPath& path, const JsonValue& value, std::string_view expected) const {
    std::string problem = "is ";
    problem += JsonTypeName(value);
    problem += ", not ";
    problem += expected;
    return Error(path, problem);
}

const JsonValue* FieldReader::Find(const JsonValue& obj, std::string_view key) {
    const JsonValue* member = ctrl::internal::FindJsonMember(obj, key);
    return member == nullptr || member->IsNull() ? nullptr : member;
}

Status FieldReader::ExpectObject(const JsonValue& value, const JsonPath& path) const {
    return value.IsObject() ? OkStatus() : TypeError(path, value, "an object");
}

Status FieldReader::Array(const JsonValue& obj, std::string_view key, const JsonPath& path, bool required,
                          const JsonValue*& out) const {
    out = ctrl::internal::FindJsonMember(obj, key);
    if (out == nullptr)
        return required ? Error(path.Member(key), "required field is missing") : OkStatus();
    if (out->IsNull()) {
        out = nullptr;
        return OkStatus();
    }
    return out->IsArray() ? OkStatus() : TypeError(path.Member(key), *out, "an array");
}

Status FieldReader::Object(const JsonValue& obj, std::string_view key, const JsonPath& path, bool required,
                           const JsonValue*& out) const {
    out = Find(obj, key);
    if (out == nullptr)
        return required ? Error(path.Member(key), "required field is missing") : OkStatus();
    return out->IsObject() ? OkStatus() : TypeError(path.Member(key), *out, "an object");
}

Status FieldReader::String(const JsonValue& obj, std::string_view key, const JsonPath& path, bool required,
                           std::string_view& out) const {
    out = {};
    const JsonValue* value = Find(obj, key);
    if (value != nullptr) {
        if (!value->IsString())
            return TypeError(path.Member(key), *value, "a string");
        out = JsonView(*value);
    }
    if (required && out.empty())
        return Error(path.Member(key), value == nullptr ? "required field is missing" : "required field is empty");
    return OkStatus();
}

Status FieldReader::String(const JsonValue& obj, std::string_view key, const JsonPath& path, bool required,
                           std::string& out) const {
    std::string_view view;
    Status status = String(obj, key, path, required, view);
    out.assign(view);
    return status;
}

Status FieldReader::Bool(const JsonValue& obj, std::string_view key, const JsonPath& path, bool required,
                         bool& out) const {
    out = false;
    const JsonValue* value = Find(obj, key);
    if (value == nullptr)
        return required ? Error(path.Member(key), "required field is missing") : OkStatus();
    if (!value->IsBool())
        return TypeError(path.Member(key), *value, "a boolean");
    out = value->GetBool();
    return OkStatus();
}

Status FieldReader::StringArray(const JsonValue& obj, std::string_view key, const JsonPath& path,
                                std::vector<std::string>& out) const {
    out.clear();
    const JsonValue* array = nullptr;
    if (Status status = Array(obj, key, path, /*required=*/false, array); !status.Ok() || array == nullptr)
        return status;
    out.reserve(array->Size());
    const JsonPath array_path = path.Member(key);
    for (rapidjson::SizeType i = 0; i < array->Size(); ++i) {
        const JsonValue& element = (*array)[i];
        if (!element.IsString())
            return TypeError(array_path.Index(i), element, "a string");
        out.emplace_back(JsonView(element));
    }
    return OkStatus();
}

Status FieldReader::ExpectKind(const JsonValue& root, std::string_view expected) const {
    std::string_view kind;
    CTRL_RETURN_IF_ERROR(String(root, "kind", JsonPath(), /*required=*/false, kind));
    if (kind.empty() || kind == expected)
        return OkStatus();
    return Error(JsonPath().Member("kind"),
                 "is \"" + std::string(kind) + "\", expected \"" + std::string(expected) + "\"");
}

}  // namespace ctrl::discovery::internal
