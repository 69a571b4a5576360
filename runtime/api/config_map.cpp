#include "ctrl/api/config_map.hpp"

#include "ctrl/api/internal/fields.hpp"
#include "ctrl/core/base64.hpp"

namespace ctrl::api {

template <typename Self>
std::map<std::string, std::string> ConfigMapFields<Self>::Data() const {
    return internal::StringMap(internal::Find(Obj(), {"data"}));
}

template <typename Self>
std::optional<std::string_view> ConfigMapFields<Self>::DataValue(std::string_view key) const {
    return internal::OptString(internal::Find(Obj(), {"data", key}));
}

template <typename Self>
StatusOr<std::string> ConfigMapFields<Self>::BinaryDataValue(std::string_view key) const {
    const std::optional<std::string_view> encoded = internal::OptString(internal::Find(Obj(), {"binaryData", key}));
    if (!encoded)
        return NotFoundError("binaryData[\"" + std::string(key) + "\"] not found");
    StatusOr<std::string> decoded = Base64Decode(*encoded);
    if (!decoded.Ok())
        return decoded.GetStatus().Annotate("binaryData[\"" + std::string(key) + "\"]");
    return decoded;
}

template <typename Self>
bool ConfigMapFields<Self>::Immutable() const {
    return internal::Bool(internal::Find(Obj(), {"immutable"}));
}

template class ConfigMapFields<ConfigMap>;
template class ConfigMapFields<ConfigMapView>;

void ConfigMap::SetData(const std::map<std::string, std::string>& data) {
    if (data.empty())
        internal::Remove(*this, {"data"});
    else
        internal::SetStringMap(*this, {"data"}, data);
}

void ConfigMap::SetDataValue(std::string_view key, std::string_view value) {
    internal::SetString(*this, {"data", key}, value);
}

bool ConfigMap::RemoveDataValue(std::string_view key) {
    return RemoveNestedField({"data", key});
}

void ConfigMap::SetBinaryDataValue(std::string_view key, std::string_view bytes) {
    internal::SetString(*this, {"binaryData", key}, Base64Encode(bytes));
}

}  // namespace ctrl::api
