#pragma once

// The parser of aggregated discovery (k8s.io/api apidiscovery v2 and v2beta1, which share their JSON
// shape): the APIGroupDiscoveryList that GET /api and GET /apis return when asked for it.

#include "ctrl/core/status_or.hpp"
#include "ctrl/discovery/api_resource.hpp"
#include "ctrl/discovery/internal/json_reader.hpp"

namespace ctrl::discovery::internal {

// APIGroupDiscoveryList {items: [{metadata: {name}, versions: [{version, freshness, resources: [{resource,
// singularResource, scope, responseKind: {group, version, kind}, verbs, shortNames, categories,
// subresources: [{subresource, responseKind, verbs}]}]}]}]} as every group (versions in the server's
// order, the preferred first) and every version's resources, in document order.
//  - A group without metadata.name is the core group "".
//  - freshness absent or "Current" is kCurrent; "Stale", and any value this parser does not know, is
//    kStale (not to be trusted).
//  - A resource's kind, group and version come from responseKind; {"group": "", "version": ""} means the
//    group version itself. A resource whose responseKind is null or has no kind is legal only when it has
//    subresources (an aggregated API server reporting subresources alone): then only those are emitted.
//  - A subresource is emitted as "<resource>/<subresource>" with the parent's scope and its own
//    responseKind and verbs; one without a responseKind kind (the API allows it) maps to no kind and is
//    left out.
// Missing required fields (version, resource, scope), wrong types and unknown scopes are BadRequest.
StatusOr<AggregatedDiscovery> ParseAPIGroupDiscoveryList(const JsonValue& root, const FieldReader& reader);

}  // namespace ctrl::discovery::internal
