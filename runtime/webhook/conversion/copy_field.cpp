#include "ctrl/webhook/conversion/copy_field.hpp"

#include <optional>

#include "ctrl/webhook/conversion/internal/document.hpp"

namespace ctrl::webhook::conversion {

Status CopyField(const Object& from, FieldPath from_path, Object& to, FieldPath to_path) {
    std::optional<Object> value = internal::ValueAt(from, from_path);
    if (!value) {
        if (to_path.Parts().empty())
            return BadRequestError("CopyField: the destination path is empty");
        to.RemoveNestedField(to_path);
        return OkStatus();
    }
    return to.SetNestedField(to_path, *value);
}

}  // namespace ctrl::webhook::conversion
