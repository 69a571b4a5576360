#pragma once

#include <string>
#include <string_view>

#include "ctrl/core/gvk.hpp"
#include "ctrl/discovery/api_resource.hpp"

namespace ctrl::discovery::internal {

// Sets resource.group and resource.version from the group and version a resource's kind is served
// in, as the document states them, when they differ from gv; both stay empty otherwise. An empty
// group and version mean gv (the aggregated form writes {"group": "", "version": ""} for that); an
// empty version alone means gv's version.
inline void SetKindGroupVersion(APIResource& resource, std::string_view group, std::string_view version,
                                const GroupVersion& gv) {
    resource.group.clear();
    resource.version.clear();
    if (group.empty() && version.empty())
        return;
    if (version.empty())
        version = gv.version;
    if (group == gv.group && version == gv.version)
        return;
    resource.group.assign(group);
    resource.version.assign(version);
}

}  // namespace ctrl::discovery::internal
