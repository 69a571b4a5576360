#pragma once

// Parsers of the legacy (unaggregated) discovery documents of k8s.io/apimachinery meta/v1:
// APIVersions (GET /api), APIGroupList (GET /apis) and APIResourceList (GET /api/v1,
// GET /apis/<group>/<version>). Each reads an already parsed document; FieldReader names the request
// in errors.

#include <vector>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/discovery/api_resource.hpp"
#include "ctrl/discovery/internal/json_reader.hpp"

namespace ctrl::discovery::internal {

// APIVersions {versions: ["v1"]} as the core group: {"", ["v1"]}. The server's order is kept (it lists
// the preferred version first).
StatusOr<APIGroup> ParseAPIVersions(const JsonValue& root, const FieldReader& reader);

// APIGroupList {groups: [{name, versions: [{groupVersion, version}], preferredVersion}]}: every group
// with its versions, the preferred one first, then the others in the server's order. A preferred
// version the group does not list is put first anyway (the server said it serves it).
StatusOr<std::vector<APIGroup>> ParseAPIGroupList(const JsonValue& root, const FieldReader& reader);

// APIResourceList {groupVersion, resources: [{name, singularName, namespaced, group, version, kind,
// verbs, shortNames, categories}]} of the group version gv. name and kind are required; group and
// version are kept only when they differ from gv (as in the aggregated form). A groupVersion that is
// present and is not gv is BadRequest.
StatusOr<GroupVersionResources> ParseAPIResourceList(const JsonValue& root, const GroupVersion& gv,
                                                     const FieldReader& reader);

}  // namespace ctrl::discovery::internal
