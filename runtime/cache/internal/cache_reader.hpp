#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ctrl/cache/cached_object.hpp"
#include "ctrl/cache/store.hpp"
#include "ctrl/client/object_form.hpp"
#include "ctrl/client/options.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/discovery/rest_mapper.hpp"

namespace ctrl::cache::internal {

// The name of the index that answers a field selector term on field (controller-runtime's
// "field:<field>").
std::string FieldIndexName(std::string_view field);

// The API server's NotFound for an object of mapping's resource: `pods "web" not found`
// (`widgets.example.com "w" not found` for a named group), HTTP 404, reason NotFound.
Status ObjectNotFound(const discovery::RESTMapping& mapping, std::string_view name);

// The objects of stores (one per cached namespace) that options select, in namespace then name
// order: the namespace, the label selector, the field selector (metadata.name and
// metadata.namespace directly, any other field through its field index, which must exist), and
// the limit. BadRequest for a continue token (the cache has no pages), a field without an index,
// or a field term other than `=` / `==` on an indexed field.
StatusOr<std::vector<CachedObject>> SelectObjects(const std::vector<const Store*>& stores,
                                                  const client::ListOptions& options);

// A copy of a cached object as form asks: a metadata-form object gets gvk back as its kind.
Object MaterializeCopy(const CachedObject& cached, client::ObjectForm form, const GroupVersionKind& gvk);

}  // namespace ctrl::cache::internal
