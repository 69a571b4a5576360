#include "ctrl/cache/transform.hpp"

namespace ctrl::cache {

Status StripManagedFields(Object& object) {
    object.RemoveManagedFields();
    return OkStatus();
}

}  // namespace ctrl::cache
