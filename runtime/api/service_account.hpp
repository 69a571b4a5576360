#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/scheme/object_view.hpp"
#include "ctrl/scheme/typed_list.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::api {

// The read accessors of a ServiceAccount, shared by ServiceAccount and ServiceAccountView. Its
// labels (metadata) are what an SGP's serviceAccountSelector matches.
template <typename Self>
class ServiceAccountFields {
  public:
    // automountServiceAccountToken; nullopt when unset (the pod's setting, else true, applies).
    std::optional<bool> AutomountServiceAccountToken() const;
    // The names in secrets[] and imagePullSecrets[].
    std::vector<std::string> SecretNames() const;
    std::vector<std::string> ImagePullSecretNames() const;

  private:
    const Object& Obj() const { return static_cast<const Self&>(*this).AsObject(); }
};

class ServiceAccountView;

// core/v1 ServiceAccount.
class ServiceAccount final : public scheme::TypedObjectBase<ServiceAccount>,
                             public ServiceAccountFields<ServiceAccount> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"", "v1", "ServiceAccount"};
    static constexpr std::string_view kListKind = "ServiceAccountList";
    using View = ServiceAccountView;
    using TypedObjectBase::TypedObjectBase;

    void SetAutomountServiceAccountToken(bool automount);
};

// A read-only ServiceAccount view of an object owned elsewhere.
class ServiceAccountView final : public scheme::ObjectView, public ServiceAccountFields<ServiceAccountView> {
  public:
    explicit ServiceAccountView(const Object& object) : ObjectView(object) {}
    ServiceAccountView(const ServiceAccount& sa) : ObjectView(sa) {}  // NOLINT(google-explicit-constructor)
    ServiceAccountView(ServiceAccount&&) = delete;
};

using ServiceAccountList = scheme::TypedList<ServiceAccount>;

extern template class ServiceAccountFields<ServiceAccount>;
extern template class ServiceAccountFields<ServiceAccountView>;

}  // namespace ctrl::api
