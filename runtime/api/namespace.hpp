#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ctrl/api/condition.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/scheme/object_view.hpp"
#include "ctrl/scheme/typed_list.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::api {

// The read accessors of a Namespace, shared by Namespace and NamespaceView.
template <typename Self>
class NamespaceFields {
  public:
    // status.phase: "Active" or "Terminating"; empty when unreported.
    std::string_view Phase() const;
    std::vector<Condition> Conditions() const;
    // spec.finalizers (["kubernetes"]): what must finish before a terminating namespace is gone.
    std::vector<std::string> SpecFinalizers() const;

  private:
    const Object& Obj() const { return static_cast<const Self&>(*this).AsObject(); }
};

class NamespaceView;

// core/v1 Namespace (cluster-scoped). The class name hides Object::Namespace() (always empty for
// a namespace); generic code reads it through an Object&.
class Namespace final : public scheme::TypedObjectBase<Namespace>, public NamespaceFields<Namespace> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"", "v1", "Namespace"};
    static constexpr std::string_view kListKind = "NamespaceList";
    using View = NamespaceView;
    using TypedObjectBase::TypedObjectBase;
};

// A read-only Namespace view of an object owned elsewhere.
class NamespaceView final : public scheme::ObjectView, public NamespaceFields<NamespaceView> {
  public:
    explicit NamespaceView(const Object& object) : ObjectView(object) {}
    NamespaceView(const api::Namespace& ns) : ObjectView(ns) {}  // NOLINT(google-explicit-constructor)
    NamespaceView(api::Namespace&&) = delete;
};

using NamespaceList = scheme::TypedList<Namespace>;

extern template class NamespaceFields<Namespace>;
extern template class NamespaceFields<NamespaceView>;

}  // namespace ctrl::api
