#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/scheme/object_view.hpp"
#include "ctrl/scheme/typed_list.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::api {

// The read accessors of a ConfigMap, shared by ConfigMap and ConfigMapView.
template <typename Self>
class ConfigMapFields {
  public:
    // data: text values by key.
    std::map<std::string, std::string> Data() const;
    std::optional<std::string_view> DataValue(std::string_view key) const;
    // binaryData[key], decoded from base64. NotFound when absent; BadRequest when not base64.
    StatusOr<std::string> BinaryDataValue(std::string_view key) const;
    // immutable: true once the data may no longer change.
    bool Immutable() const;

  private:
    const Object& Obj() const { return static_cast<const Self&>(*this).AsObject(); }
};

class ConfigMapView;

// core/v1 ConfigMap.
class ConfigMap final : public scheme::TypedObjectBase<ConfigMap>, public ConfigMapFields<ConfigMap> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"", "v1", "ConfigMap"};
    static constexpr std::string_view kListKind = "ConfigMapList";
    using View = ConfigMapView;
    using TypedObjectBase::TypedObjectBase;

    // Replaces data; an empty map removes it.
    void SetData(const std::map<std::string, std::string>& data);
    void SetDataValue(std::string_view key, std::string_view value);
    // Returns whether the key was there.
    bool RemoveDataValue(std::string_view key);
    // Sets binaryData[key] to bytes, base64-encoded.
    void SetBinaryDataValue(std::string_view key, std::string_view bytes);
};

// A read-only ConfigMap view of an object owned elsewhere.
class ConfigMapView final : public scheme::ObjectView, public ConfigMapFields<ConfigMapView> {
  public:
    explicit ConfigMapView(const Object& object) : ObjectView(object) {}
    ConfigMapView(const ConfigMap& cm) : ObjectView(cm) {}  // NOLINT(google-explicit-constructor)
    ConfigMapView(ConfigMap&&) = delete;
};

using ConfigMapList = scheme::TypedList<ConfigMap>;

extern template class ConfigMapFields<ConfigMap>;
extern template class ConfigMapFields<ConfigMapView>;

}  // namespace ctrl::api
