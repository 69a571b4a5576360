#pragma once

// Kinds a user of the runtime would declare for their own CRDs: what the scheme tests register.

#include <cstdint>
#include <string_view>

#include "ctrl/core/object.hpp"
#include "ctrl/scheme/object_view.hpp"
#include "ctrl/scheme/typed_list.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::scheme::testing {

class WidgetView;

// example.com/v1 Widget: a custom kind with one accessor.
class Widget final : public TypedObjectBase<Widget> {
  public:
    static constexpr StaticGroupVersionKind kGroupVersionKind{"example.com", "v1", "Widget"};
    static constexpr std::string_view kListKind = "WidgetList";
    using View = WidgetView;
    using TypedObjectBase::TypedObjectBase;

    int64_t Replicas() const { return NestedInt({"spec", "replicas"}).ValueOr(0); }
    void SetReplicas(int64_t replicas) { (void)SetNestedInt({"spec", "replicas"}, replicas); }
};

// A read-only Widget view.
class WidgetView final : public ObjectView {
  public:
    explicit WidgetView(const Object& object) : ObjectView(object) {}
    int64_t Replicas() const { return AsObject().NestedInt({"spec", "replicas"}).ValueOr(0); }
};

// example.com/v2 Widget: the same kind name in another version, another C++ type.
class WidgetV2 final : public TypedObjectBase<WidgetV2> {
  public:
    static constexpr StaticGroupVersionKind kGroupVersionKind{"example.com", "v2", "Widget"};
    static constexpr std::string_view kListKind = "WidgetList";
    using TypedObjectBase::TypedObjectBase;
};

// A second C++ type claiming example.com/v1 Widget: registering it next to Widget must fail.
class ImpostorWidget final : public TypedObjectBase<ImpostorWidget> {
  public:
    static constexpr StaticGroupVersionKind kGroupVersionKind{"example.com", "v1", "Widget"};
    static constexpr std::string_view kListKind = "WidgetList";
    using TypedObjectBase::TypedObjectBase;
};

// A core-group kind, to check "v1" apiVersions.
class Thing final : public TypedObjectBase<Thing> {
  public:
    static constexpr StaticGroupVersionKind kGroupVersionKind{"", "v1", "Thing"};
    static constexpr std::string_view kListKind = "ThingList";
    using TypedObjectBase::TypedObjectBase;
};

// Without a version: registration must refuse it.
class Versionless final : public TypedObjectBase<Versionless> {
  public:
    static constexpr StaticGroupVersionKind kGroupVersionKind{"example.com", "", "Versionless"};
    static constexpr std::string_view kListKind = "VersionlessList";
    using TypedObjectBase::TypedObjectBase;
};

}  // namespace ctrl::scheme::testing
