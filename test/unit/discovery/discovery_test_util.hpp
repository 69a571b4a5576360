#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "ctrl/discovery/api_resource.hpp"
#include "test/unit/core/testdata.hpp"

namespace ctrl::discovery::test {

using ctrl::test::ReadTestdata;

// The resource named name ("pods", "pods/status"), or nullptr.
// core/v1 pods as both testdata documents (aggregated and legacy) describe them.
inline APIResource ServedPods() {
    return APIResource{.name = "pods",
                       .singular_name = "pod",
                       .namespaced = true,
                       .kind = "Pod",
                       .group = "",
                       .version = "",
                       .verbs = {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
                       .short_names = {"po"},
                       .categories = {"all"}};
}

inline const APIResource* FindResource(const GroupVersionResources& gvr, std::string_view name) {
    for (const APIResource& resource : gvr.resources) {
        if (resource.name == name)
            return &resource;
    }
    return nullptr;
}

// The names of the resources, in order.
inline std::vector<std::string> ResourceNames(const GroupVersionResources& gvr) {
    std::vector<std::string> names;
    for (const APIResource& resource : gvr.resources)
        names.push_back(resource.name);
    return names;
}

}  // namespace ctrl::discovery::test
