#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::scheme::internal {

Status AdoptKind(Object& object, const StaticGroupVersionKind& gvk) {
    const std::string api_version = gvk.ApiVersion();
    const bool api_version_differs = !object.ApiVersion().empty() && object.ApiVersion() != api_version;
    const bool kind_differs = !object.Kind().empty() && object.Kind() != gvk.kind;
    if (api_version_differs || kind_differs) {
        return BadRequestError("an object of apiVersion \"" + std::string(object.ApiVersion()) + "\" and kind \"" +
                               std::string(object.Kind()) + "\" cannot be read as " +
                               gvk.ToGroupVersionKind().String());
    }
    if (object.ApiVersion().empty())
        object.SetApiVersion(api_version);
    if (object.Kind().empty())
        object.SetKind(gvk.kind);
    return OkStatus();
}

bool HasKind(const Object& object, const StaticGroupVersionKind& gvk) {
    return object.Kind() == gvk.kind && object.ApiVersion() == gvk.ApiVersion();
}

}  // namespace ctrl::scheme::internal
