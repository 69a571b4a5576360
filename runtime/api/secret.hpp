#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/scheme/object_view.hpp"
#include "ctrl/scheme/typed_list.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::api {

// The read accessors of a Secret, shared by Secret and SecretView. Values are bytes: data holds
// them base64-encoded, and these accessors decode. Never log what they return.
template <typename Self>
class SecretFields {
  public:
    // type: "Opaque", "kubernetes.io/tls", ...; empty when unset (the server defaults it to Opaque).
    std::string_view Type() const;
    // The keys of data, sorted.
    std::vector<std::string> DataKeys() const;
    // data[key], decoded. NotFound when absent; BadRequest naming the key when not base64.
    StatusOr<std::string> DataValue(std::string_view key) const;
    // All of data, decoded; BadRequest naming the first key that is not base64.
    StatusOr<std::map<std::string, std::string>> Data() const;
    bool Immutable() const;

  private:
    const Object& Obj() const { return static_cast<const Self&>(*this).AsObject(); }
};

class SecretView;

// core/v1 Secret.
class Secret final : public scheme::TypedObjectBase<Secret>, public SecretFields<Secret> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"", "v1", "Secret"};
    static constexpr std::string_view kListKind = "SecretList";
    using View = SecretView;
    using TypedObjectBase::TypedObjectBase;

    void SetType(std::string_view type);
    // Sets data[key] to bytes, base64-encoded.
    void SetDataValue(std::string_view key, std::string_view bytes);
    // Returns whether the key was there.
    bool RemoveDataValue(std::string_view key);
    // Sets stringData[key]: write-only plain text the server merges into data on write.
    void SetStringDataValue(std::string_view key, std::string_view text);
};

// A read-only Secret view of an object owned elsewhere.
class SecretView final : public scheme::ObjectView, public SecretFields<SecretView> {
  public:
    explicit SecretView(const Object& object) : ObjectView(object) {}
    SecretView(const Secret& secret) : ObjectView(secret) {}  // NOLINT(google-explicit-constructor)
    SecretView(Secret&&) = delete;
};

using SecretList = scheme::TypedList<Secret>;

extern template class SecretFields<Secret>;
extern template class SecretFields<SecretView>;

}  // namespace ctrl::api
