#include "test/unit/webhook/widget_kinds.hpp"

#include "ctrl/webhook/conversion/copy_field.hpp"

namespace ctrl::testing::widgets {

using webhook::conversion::CopyField;

namespace v1 {

Status Widget::ConvertTo(v2::Widget& hub) const {
    if (StatusOr<int64_t> size = NestedInt({"spec", "sizeCm"}); size.Ok()) {
        CTRL_RETURN_IF_ERROR(hub.SetNestedInt({"spec", "size", "value"}, *size));
        CTRL_RETURN_IF_ERROR(hub.SetNestedString({"spec", "size", "unit"}, "cm"));
    }
    CTRL_RETURN_IF_ERROR(CopyField(*this, {"spec", "colour"}, hub, {"spec", "color"}));
    return CopyField(*this, hub, {"status"});
}

Status Widget::ConvertFrom(const v2::Widget& hub) {
    if (StatusOr<int64_t> size = hub.NestedInt({"spec", "size", "value"}); size.Ok()) {
        const std::string unit = hub.NestedString({"spec", "size", "unit"}).ValueOr("cm");
        if (unit != "cm")
            return InvalidError("spec.size.unit \"" + unit + "\": v1 says sizes in cm only");
        CTRL_RETURN_IF_ERROR(SetNestedInt({"spec", "sizeCm"}, *size));
    }
    CTRL_RETURN_IF_ERROR(CopyField(hub, {"spec", "color"}, *this, {"spec", "colour"}));
    return CopyField(hub, *this, {"status"});
}

}  // namespace v1

namespace v3 {

Status Widget::ConvertTo(v2::Widget& hub) const {
    CTRL_RETURN_IF_ERROR(CopyField(*this, hub, {"spec"}));
    return CopyField(*this, hub, {"status"});
}

Status Widget::ConvertFrom(const v2::Widget& hub) {
    CTRL_RETURN_IF_ERROR(CopyField(hub, *this, {"spec"}));
    return CopyField(hub, *this, {"status"});
}

}  // namespace v3

}  // namespace ctrl::testing::widgets
