#include "ctrl/scheme/typed_list.hpp"

#include <string>

namespace ctrl::scheme::internal {

Status AdoptListKind(ObjectList& list, const StaticGroupVersionKind& item_gvk, std::string_view list_kind) {
    const std::string api_version = item_gvk.ApiVersion();
    if ((!list.ApiVersion().empty() && list.ApiVersion() != api_version) ||
        (!list.Kind().empty() && list.Kind() != list_kind)) {
        return BadRequestError("a list of apiVersion \"" + std::string(list.ApiVersion()) + "\" and kind \"" +
                               std::string(list.Kind()) + "\" cannot be read as a " + std::string(list_kind));
    }
    // Check every item before changing anything.
    for (std::size_t i = 0; i < list.Items().size(); ++i) {
        const Object& item = list.Items()[i];
        if ((!item.ApiVersion().empty() && item.ApiVersion() != api_version) ||
            (!item.Kind().empty() && item.Kind() != item_gvk.kind)) {
            return BadRequestError("items[" + std::to_string(i) + "] of apiVersion \"" +
                                   std::string(item.ApiVersion()) + "\" and kind \"" + std::string(item.Kind()) +
                                   "\" cannot be an item of a " + std::string(list_kind));
        }
    }
    list.SetApiVersion(api_version);
    list.SetKind(list_kind);
    for (Object& item : list.Items()) {
        if (item.ApiVersion().empty())
            item.SetApiVersion(api_version);
        if (item.Kind().empty())
            item.SetKind(item_gvk.kind);
    }
    return OkStatus();
}

}  // namespace ctrl::scheme::internal
