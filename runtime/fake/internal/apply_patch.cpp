#include "ctrl/fake/internal/apply_patch.hpp"

#include <string>
#include <utility>
#include <vector>

#include "ctrl/core/internal/json.hpp"

namespace ctrl::fake::internal {
namespace {

using ctrl::internal::FindJsonMember;
using ctrl::internal::JsonDocument;
using ctrl::internal::JsonValue;
using ctrl::internal::JsonView;
using ctrl::internal::PoolAllocator;

// The server's answer when a JSON patch operation does not apply.
Status OperationFailed(std::string_view why) {
    return InvalidError("the server rejected our request due to an error in our request: " + std::string(why))
        .WithHttpCode(422)
        .WithReason("Invalid");
}

// RFC 7386 merge of patch into target.
void MergeValue(JsonValue& target, const JsonValue& patch, PoolAllocator& allocator) {
    if (!patch.IsObject()) {
        target.CopyFrom(patch, allocator);
        return;
    }
    if (!target.IsObject())
        target.SetObject();
    for (auto it = patch.MemberBegin(); it != patch.MemberEnd(); ++it) {
        const std::string_view name = JsonView(it->name);
        if (it->value.IsNull()) {
            ctrl::internal::EraseJsonMember(target, name);
            continue;
        }
        if (JsonValue* existing = FindJsonMember(target, name)) {
            MergeValue(*existing, it->value, allocator);
            continue;
        }
        JsonValue added;
        MergeValue(added, it->value, allocator);
        ctrl::internal::SetJsonMember(target, name, added, allocator);
    }
}

// The tokens of an RFC 6901 pointer ("" is the whole document). BadRequest when malformed.
StatusOr<std::vector<std::string>> PointerTokens(std::string_view pointer) {
    std::vector<std::string> tokens;
    if (pointer.empty())
        return tokens;
    if (pointer.front() != '/')
        return BadRequestError("JSON pointer \"" + std::string(pointer) + "\" does not start with '/'");
    std::string token;
    for (std::size_t i = 1; i <= pointer.size(); ++i) {
        if (i == pointer.size() || pointer[i] == '/') {
            tokens.push_back(std::move(token));
            token.clear();
        } else if (pointer[i] == '~' && i + 1 < pointer.size() && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
            token += pointer[i + 1] == '0' ? '~' : '/';
            ++i;
        } else {
            token += pointer[i];
        }
    }
    return tokens;
}

// An array index token: digits without a leading zero; nullopt otherwise.
std::optional<std::size_t> ArrayIndex(const std::string& token) {
    if (token.empty() || (token.size() > 1 && token[0] == '0'))
        return std::nullopt;
    std::size_t index = 0;
    for (char c : token) {
        if (c < '0' || c > '9')
            return std::nullopt;
        index = index * 10 + static_cast<std::size_t>(c - '0');
    }
    return index;
}

// The value a pointer names, or nullptr.
JsonValue* Resolve(JsonValue& root, const std::vector<std::string>& tokens, std::size_t count) {
    JsonValue* at = &root;
    for (std::size_t i = 0; i < count; ++i) {
        if (at->IsObject()) {
            at = FindJsonMember(*at, tokens[i]);
        } else if (at->IsArray()) {
            std::optional<std::size_t> index = ArrayIndex(tokens[i]);
            at = index && *index < at->Size() ? &(*at)[static_cast<rapidjson::SizeType>(*index)] : nullptr;
        } else {
            at = nullptr;
        }
        if (at == nullptr)
            return nullptr;
    }
    return at;
}

// Takes value out of the document at tokens (remove), into taken.
Status Remove(JsonValue& root, const std::vector<std::string>& tokens, const std::string& path, JsonValue* taken,
              PoolAllocator& allocator) {
    if (tokens.empty())
        return OperationFailed("cannot remove the whole document");
    JsonValue* parent = Resolve(root, tokens, tokens.size() - 1);
    const std::string& last = tokens.back();
    if (parent != nullptr && parent->IsObject()) {
        JsonValue* member = FindJsonMember(*parent, last);
        if (member != nullptr) {
            if (taken != nullptr)
                taken->CopyFrom(*member, allocator);
            ctrl::internal::EraseJsonMember(*parent, last);
            return OkStatus();
        }
    } else if (parent != nullptr && parent->IsArray()) {
        std::optional<std::size_t> index = ArrayIndex(last);
        if (index && *index < parent->Size()) {
            if (taken != nullptr)
                taken->CopyFrom((*parent)[static_cast<rapidjson::SizeType>(*index)], allocator);
            parent->Erase(parent->Begin() + *index);
            return OkStatus();
        }
    }
    return OperationFailed("doc is missing path: \"" + path + "\": missing value");
}

// Puts value at tokens: an object member is set, an array element inserted ("-" appends);
// replace instead requires the target to exist and overwrites it.
Status Put(JsonValue& root, const std::vector<std::string>& tokens, const std::string& path, JsonValue& value,
           bool replace, PoolAllocator& allocator) {
    if (tokens.empty()) {
        root.Swap(value);
        return OkStatus();
    }
    JsonValue* parent = Resolve(root, tokens, tokens.size() - 1);
    const std::string& last = tokens.back();
    if (parent != nullptr && parent->IsObject()) {
        if (replace && FindJsonMember(*parent, last) == nullptr)
            return OperationFailed("doc is missing key: " + path + ": missing value");
        ctrl::internal::SetJsonMember(*parent, last, value, allocator);
        return OkStatus();
    }
    if (parent != nullptr && parent->IsArray()) {
        if (!replace && last == "-") {
            parent->PushBack(value, allocator);
            return OkStatus();
        }
        std::optional<std::size_t> index = ArrayIndex(last);
        if (index && replace && *index < parent->Size()) {
            (*parent)[static_cast<rapidjson::SizeType>(*index)].Swap(value);
            return OkStatus();
        }
        if (index && !replace && *index <= parent->Size()) {
            parent->PushBack(value, allocator);
            for (std::size_t i = parent->Size() - 1; i > *index; --i)
                (*parent)[static_cast<rapidjson::SizeType>(i)].Swap((*parent)[static_cast<rapidjson::SizeType>(i - 1)]);
            return OkStatus();
        }
        return OperationFailed("unable to access invalid index: " + last + ": invalid index referenced");
    }
    return OperationFailed("doc is missing path: \"" + path + "\": missing value");
}

Status ApplyOperation(JsonValue& root, const JsonValue& operation, PoolAllocator& allocator) {
    if (!operation.IsObject())
        return BadRequestError("a JSON patch operation is not an object");
    const std::string_view op = ctrl::internal::JsonStringMember(operation, "op");
    const std::string path(ctrl::internal::JsonStringMember(operation, "path"));
    CTRL_ASSIGN_OR_RETURN(std::vector<std::string> tokens, PointerTokens(path));
    const JsonValue* given = FindJsonMember(operation, "value");
    if (op == "add" || op == "replace" || op == "test") {
        if (given == nullptr)
            return BadRequestError("JSON patch operation \"" + std::string(op) + "\" has no value");
        if (op == "test") {
            const JsonValue* current = Resolve(root, tokens, tokens.size());
            if (current == nullptr || *current != *given)
                return OperationFailed("testing value " + path + " failed: test failed");
            return OkStatus();
        }
        JsonValue value(*given, allocator);
        return Put(root, tokens, path, value, op == "replace", allocator);
    }
    if (op == "remove")
        return Remove(root, tokens, path, nullptr, allocator);
    if (op == "move" || op == "copy") {
        const std::string from(ctrl::internal::JsonStringMember(operation, "from"));
        CTRL_ASSIGN_OR_RETURN(std::vector<std::string> from_tokens, PointerTokens(from));
        JsonValue value;
        if (op == "move") {
            CTRL_RETURN_IF_ERROR(Remove(root, from_tokens, from, &value, allocator));
        } else {
            const JsonValue* source = Resolve(root, from_tokens, from_tokens.size());
            if (source == nullptr)
                return OperationFailed("doc is missing from path: \"" + from + "\": missing value");
            value.CopyFrom(*source, allocator);
        }
        return Put(root, tokens, path, value, /*replace=*/false, allocator);
    }
    return BadRequestError("unexpected JSON patch operation \"" + std::string(op) + "\"");
}

}  // namespace

Status ApplyMergePatch(Object& object, std::string_view patch) {
    JsonDocument parsed;
    CTRL_RETURN_IF_ERROR(ctrl::internal::ParseJson(patch, parsed));
    if (!parsed.Root().IsObject())
        return BadRequestError("a merge patch must be a JSON object");
    Object result = object.DeepCopy();
    MergeValue(result.Document().Root(), parsed.Root(), result.Document().Allocator());
    object = std::move(result);
    return OkStatus();
}

Status ApplyJsonPatch(Object& object, std::string_view patch) {
    JsonDocument parsed;
    CTRL_RETURN_IF_ERROR(ctrl::internal::ParseJson(patch, parsed));
    if (!parsed.Root().IsArray())
        return BadRequestError("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
    Object result = object.DeepCopy();
    for (const JsonValue& operation : parsed.Root().GetArray())
        CTRL_RETURN_IF_ERROR(ApplyOperation(result.Document().Root(), operation, result.Document().Allocator()));
    object = std::move(result);
    return OkStatus();
}

}  // namespace ctrl::fake::internal
