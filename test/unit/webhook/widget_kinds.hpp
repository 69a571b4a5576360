#pragma once

// Three versions of a Widget (group test.ctrl.dev) for the conversion tests, written by hand as
// ctrl-gen writes a hub and its spokes: v2 is the hub; v1 and v3 are spokes.
//   v2: spec.size {value, unit}, spec.color, spec.tags (only v2 has tags), status
//   v1: spec.sizeCm (a size in cm: v2's size in another unit cannot be said), spec.colour (v2's
//       color renamed), spec.legacy (only v1 has it), status
//   v3: spec.size, spec.color, spec.tags, status: v2 by another version name (nothing lost)

#include <string_view>

#include "ctrl/core/status.hpp"
#include "ctrl/scheme/kind_list.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::testing::widgets {

namespace v1 {
class Widget;
}
namespace v3 {
class Widget;
}

namespace v2 {
class Widget final : public scheme::TypedObjectBase<Widget> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"test.ctrl.dev", "v2", "Widget"};
    static constexpr std::string_view kListKind = "WidgetList";
    using TypedObjectBase::TypedObjectBase;
    using ConversionSpokes = scheme::KindList<v1::Widget, v3::Widget>;
};
}  // namespace v2

namespace v1 {
class Widget final : public scheme::TypedObjectBase<Widget> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"test.ctrl.dev", "v1", "Widget"};
    static constexpr std::string_view kListKind = "WidgetList";
    using TypedObjectBase::TypedObjectBase;
    using ConversionHub = v2::Widget;
    Status ConvertTo(v2::Widget& hub) const;
    Status ConvertFrom(const v2::Widget& hub);
};
}  // namespace v1

namespace v3 {
class Widget final : public scheme::TypedObjectBase<Widget> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"test.ctrl.dev", "v3", "Widget"};
    static constexpr std::string_view kListKind = "WidgetList";
    using TypedObjectBase::TypedObjectBase;
    using ConversionHub = v2::Widget;
    Status ConvertTo(v2::Widget& hub) const;
    Status ConvertFrom(const v2::Widget& hub);
};
}  // namespace v3

// A kind that does not convert.
class Gadget final : public scheme::TypedObjectBase<Gadget> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"test.ctrl.dev", "v1", "Gadget"};
    static constexpr std::string_view kListKind = "GadgetList";
    using TypedObjectBase::TypedObjectBase;
};

}  // namespace ctrl::testing::widgets
