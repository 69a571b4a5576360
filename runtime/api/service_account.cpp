#include "ctrl/api/service_account.hpp"

#include "ctrl/api/internal/fields.hpp"

namespace ctrl::api {

namespace {

std::vector<std::string> ReferenceNames(const Object& object, std::string_view field) {
    std::vector<std::string> out;
    internal::ForEachObject(internal::Find(object, {field}), [&](const internal::JsonValue& entry) {
        out.push_back(internal::StringCopy(internal::Find(&entry, {"name"})));
    });
    return out;
}

}  // namespace

template <typename Self>
std::optional<bool> ServiceAccountFields<Self>::AutomountServiceAccountToken() const {
    return internal::OptBool(internal::Find(Obj(), {"automountServiceAccountToken"}));
}

template <typename Self>
std::vector<std::string> ServiceAccountFields<Self>::SecretNames() const {
    return ReferenceNames(Obj(), "secrets");
}

template <typename Self>
std::vector<std::string> ServiceAccountFields<Self>::ImagePullSecretNames() const {
    return ReferenceNames(Obj(), "imagePullSecrets");
}

template class ServiceAccountFields<ServiceAccount>;
template class ServiceAccountFields<ServiceAccountView>;

void ServiceAccount::SetAutomountServiceAccountToken(bool automount) {
    internal::SetBool(*this, {"automountServiceAccountToken"}, automount);
}

}  // namespace ctrl::api
