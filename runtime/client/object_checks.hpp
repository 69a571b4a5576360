#pragma once

#include <string_view>

#include "ctrl/client/patch.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/discovery/rest_mapper.hpp"

namespace ctrl::client {

// The checks every Reader makes before it reads (the direct client and the cache alike), so both
// refuse the same input with the same words.

// The kind an object names: its apiVersion and kind. BadRequest when either is missing
// ("Object 'Kind' is missing ...", as controller-runtime says) or malformed.
StatusOr<GroupVersionKind> KindOfObject(const Object& object);
// The item kind a list names: "PodList" gives Pod. BadRequest when the list's kind is missing or
// does not end in "List".
StatusOr<GroupVersionKind> ItemKindOfList(const ObjectList& list);

// Checks the key of a call (verb: "get", "update", ...) on one named object of mapping's kind:
// Invalid, naming the kind and field, when the name is empty or when the kind is namespaced and
// the namespace is empty.
Status CheckNamedKey(const discovery::RESTMapping& mapping, const ObjectKey& key, std::string_view verb);

// The checks every Writer makes before it writes (the direct client and the fake alike).

// BadRequest: a metadata-only object cannot be created or updated (verb: "create", "update").
Status MetadataOnlyWrite(std::string_view verb);
// The options of a patch: BadRequest for force without server-side apply; Invalid for an apply
// without a field manager (field_manager: the one the request will name).
Status CheckPatchOptions(PatchType type, bool force, std::string_view field_manager);
// Invalid when a DeleteAllOf of a namespaced kind names no namespace (the API deletes a collection
// in one namespace).
Status CheckDeleteAllOfNamespace(const discovery::RESTMapping& mapping, std::string_view namespace_name);

// Invalid: `<Kind> "<name>" is invalid: <field>: Required value: <why>`, with its field cause.
Status RequiredValue(const GroupVersionKind& gvk, std::string_view name, std::string_view field, std::string_view why);

}  // namespace ctrl::client
