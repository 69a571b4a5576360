#include "ctrl/api/secret.hpp"

#include "ctrl/api/internal/fields.hpp"
#include "ctrl/core/base64.hpp"

namespace ctrl::api {

namespace {

// Decodes one data value; the message names the key, never the value.
StatusOr<std::string> Decode(std::string_view key, std::string_view encoded) {
    StatusOr<std::string> decoded = Base64Decode(encoded);
    if (!decoded.Ok())
        return decoded.GetStatus().Annotate("data[\"" + std::string(key) + "\"]");
    return decoded;
}

}  // namespace

template <typename Self>
std::string_view SecretFields<Self>::Type() const {
    return internal::String(internal::Find(Obj(), {"type"}));
}

template <typename Self>
std::vector<std::string> SecretFields<Self>::DataKeys() const {
    std::vector<std::string> keys;
    for (const auto& [key, value] : internal::StringMap(internal::Find(Obj(), {"data"})))
        keys.push_back(key);
    return keys;
}

template <typename Self>
StatusOr<std::string> SecretFields<Self>::DataValue(std::string_view key) const {
    const std::optional<std::string_view> encoded = internal::OptString(internal::Find(Obj(), {"data", key}));
    if (!encoded)
        return NotFoundError("data[\"" + std::string(key) + "\"] not found");
    return Decode(key, *encoded);
}

template <typename Self>
StatusOr<std::map<std::string, std::string>> SecretFields<Self>::Data() const {
    std::map<std::string, std::string> out;
    for (const auto& [key, encoded] : internal::StringMap(internal::Find(Obj(), {"data"}))) {
        CTRL_ASSIGN_OR_RETURN(std::string value, Decode(key, encoded));
        out.emplace(key, std::move(value));
    }
    return out;
}

template <typename Self>
bool SecretFields<Self>::Immutable() const {
    return internal::Bool(internal::Find(Obj(), {"immutable"}));
}

template class SecretFields<Secret>;
template class SecretFields<SecretView>;

void Secret::SetType(std::string_view type) {
    internal::SetString(*this, {"type"}, type);
}

void Secret::SetDataValue(std::string_view key, std::string_view bytes) {
    internal::SetString(*this, {"data", key}, Base64Encode(bytes));
}

bool Secret::RemoveDataValue(std::string_view key) {
    return RemoveNestedField({"data", key});
}

void Secret::SetStringDataValue(std::string_view key, std::string_view text) {
    internal::SetString(*this, {"stringData", key}, text);
}

}  // namespace ctrl::api
