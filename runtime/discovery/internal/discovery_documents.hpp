#pragma once

// Whole discovery answers, from body text to the data model: the JSON is parsed once into a scratch
// document and read in place (no Object per resource).

#include <optional>
#include <string_view>
#include <vector>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/discovery/api_resource.hpp"

namespace ctrl::discovery::internal {

// What GET /api or GET /apis returned, in either form.
struct RootDocument {
    bool aggregated = false;
    std::vector<APIGroup> groups;
    std::vector<GroupVersionResources> versions;  // empty unless aggregated
};

// The answer of GET /api (core: its groups are the core group "" only) or GET /apis (named groups
// only). Aggregated when content_type says so (IsAggregatedDiscoveryContentType) or, failing that, when
// the body's kind is APIGroupDiscoveryList; else the legacy APIVersions (core) or APIGroupList.
// document names the request in errors ("GET /apis"); every error is BadRequest.
StatusOr<RootDocument> ParseRootDocument(std::string_view body, std::optional<std::string_view> content_type, bool core,
                                         std::string_view document);

// The APIResourceList answer of GET /api/<v> or GET /apis/<g>/<v> for gv.
StatusOr<GroupVersionResources> ParseGroupVersionDocument(std::string_view body, const GroupVersion& gv,
                                                          std::string_view document);

}  // namespace ctrl::discovery::internal
