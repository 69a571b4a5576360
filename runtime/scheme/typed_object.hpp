#pragma once

#include <concepts>
#include <string>
#include <string_view>
#include <utility>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::scheme {

// A GroupVersionKind spelled at compile time: what a typed kind declares as kGroupVersionKind.
struct StaticGroupVersionKind {
    std::string_view group;  // "" for the core group
    std::string_view version;
    std::string_view kind;

    GroupVersionKind ToGroupVersionKind() const {
        return {std::string(group), std::string(version), std::string(kind)};
    }
    // The apiVersion form: "v1", "coordination.k8s.io/v1".
    std::string ApiVersion() const { return ToGroupVersionKind().ApiVersion(); }
};

// A typed kind (docs/decisions.md, decision 4): a class that is an Object, adds no state of its own (so a
// move to or from Object loses nothing and costs a pointer), and declares its kind and list kind
// statically:
//   static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"", "v1", "Pod"};
//   static constexpr std::string_view kListKind = "PodList";
// A default-constructed T is a fresh object with apiVersion and kind set. TypedObjectBase gives
// all of this but the two constants.
template <typename T>
concept TypedObject = requires {
    requires std::derived_from<T, Object>;
    requires sizeof(T) == sizeof(Object);
    requires std::default_initializable<T>;
    requires std::move_constructible<T>;
    { T::kGroupVersionKind } -> std::convertible_to<StaticGroupVersionKind>;
    { T::kListKind } -> std::convertible_to<std::string_view>;
};

// T's kind as a runtime value: "/v1, Kind=Pod".
template <TypedObject T>
GroupVersionKind GroupVersionKindOf() {
    return StaticGroupVersionKind(T::kGroupVersionKind).ToGroupVersionKind();
}

// T's list kind: "/v1, Kind=PodList".
template <TypedObject T>
GroupVersionKind ListGroupVersionKindOf() {
    const StaticGroupVersionKind gvk = T::kGroupVersionKind;
    return {std::string(gvk.group), std::string(gvk.version), std::string(T::kListKind)};
}

namespace internal {
// Makes object's apiVersion and kind those of gvk: a missing one is set; one that is set and
// differs is BadRequest ("an object of kind ... cannot be read as ..."), with object unchanged.
Status AdoptKind(Object& object, const StaticGroupVersionKind& gvk);
// Whether object's apiVersion and kind are exactly gvk's.
bool HasKind(const Object& object, const StaticGroupVersionKind& gvk);
}  // namespace internal

// Whether object holds a T (its apiVersion and kind are T's): check before viewing an object of
// unknown kind through T's view.
template <TypedObject T>
bool IsKind(const Object& object) {
    return internal::HasKind(object, T::kGroupVersionKind);
}

// The base of a typed kind: knows how to create a fresh object of Self's kind, adopt an Object
// (checking its kind), parse one, and deep-copy one as Self. A kind derives from it, declares the
// two constants and inherits its constructors:
//   class Widget final : public scheme::TypedObjectBase<Widget> {
//     public:
//       static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"example.com", "v1", "Widget"};
//       static constexpr std::string_view kListKind = "WidgetList";
//       using TypedObjectBase::TypedObjectBase;
//       std::optional<int64_t> Replicas() const;
//   };
// Self must add no data members (TypedObject checks it): all state is the JSON document.
template <typename Self>
class TypedObjectBase : public Object {
    // Selects the adopting constructor; only this class can name it.
    struct AdoptTag {};

  public:
    // A fresh object: {"apiVersion": ..., "kind": ...}.
    TypedObjectBase() { SetGroupVersionKind(GroupVersionKindOf<Self>()); }
    // For FromObject: takes object's document as it is.
    TypedObjectBase(AdoptTag /*tag*/, Object&& object) : Object(std::move(object)) {}

    // Takes object's document (no copy). Missing apiVersion or kind are set to Self's; another
    // kind is BadRequest (object is then left as it was).
    static StatusOr<Self> FromObject(Object&& object) {
        static_assert(TypedObject<Self>, "a typed kind must satisfy scheme::TypedObject");
        static_assert(
            std::is_constructible_v<Self, AdoptTag, Object&&>,
            "a typed kind must inherit TypedObjectBase's constructors: using TypedObjectBase::TypedObjectBase;");
        CTRL_RETURN_IF_ERROR(internal::AdoptKind(object, Self::kGroupVersionKind));
        return Self(AdoptTag{}, std::move(object));
    }
    // Parses JSON, then FromObject.
    static StatusOr<Self> Parse(std::string_view json) {
        CTRL_ASSIGN_OR_RETURN(Object object, Object::Parse(json));
        return FromObject(std::move(object));
    }
    // A compact deep copy of the same kind.
    Self DeepCopy() const { return Self(AdoptTag{}, Object::DeepCopy()); }

    Object& AsObject() & { return *this; }
    const Object& AsObject() const& { return *this; }
};

}  // namespace ctrl::scheme
