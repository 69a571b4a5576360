#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/discovery/rest_mapper.hpp"

namespace ctrl::fake::internal {

// The errors the kube-apiserver answers, with its code, reason, HTTP code and message text, so a
// test that checks a Status against the fake sees what it would see against a real server.

// "configmaps", "widgets.test.ctrl.dev": how the server names a resource in messages.
std::string QualifiedResource(const discovery::RESTMapping& mapping);
// "ConfigMap", "Widget.test.ctrl.dev": how the server names a kind in Invalid messages.
std::string QualifiedKind(const GroupVersionKind& gvk);

// `configmaps "x" not found` (404 NotFound).
Status NotFound(const discovery::RESTMapping& mapping, std::string_view name);
// `configmaps "x" already exists` (409 AlreadyExists).
Status AlreadyExists(const discovery::RESTMapping& mapping, std::string_view name);
// `Operation cannot be fulfilled on configmaps "x": <why>` (409 Conflict).
Status Conflict(const discovery::RESTMapping& mapping, std::string_view name, std::string_view why);
// Conflict for a stale resourceVersion: "the object has been modified; please apply your changes
// to the latest version and try again".
Status StaleResourceVersion(const discovery::RESTMapping& mapping, std::string_view name);
// A delete (or update) precondition that does not hold (409 Conflict): `Operation cannot be
// fulfilled on ConfigMap "x": the UID in the precondition (a) does not match the UID in record
// (b). The object might have been deleted and then recreated`. field is "UID" or "ResourceVersion".
Status PreconditionFailed(const GroupVersionKind& gvk, std::string_view name, std::string_view field,
                          std::string_view wanted, std::string_view actual);
// A field selector on a field the server does not index for the kind (400 BadRequest):
// `"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"`.
Status UnknownFieldSelector(std::string_view field, const std::vector<std::string>& known);
// `<kind> "x" is invalid: <field>: <detail>` (422 Invalid) with one field cause. kind is how the
// server names the kind: QualifiedKind for a kind's validation ("ConfigMap"), QualifiedResource
// for the registry's own checks ("widgets.test.ctrl.dev"). cause_type is the StatusCause type
// ("FieldValueRequired", "FieldValueInvalid").
Status InvalidField(std::string_view kind, std::string_view name, std::string_view field, std::string_view cause_type,
                    std::string_view detail);
// A write that changes an immutable field (422 Invalid), as the server words it (twice):
// `ConfigMap "x" is invalid: metadata.deletionTimestamp: Invalid value: "<value>": field is immutable; ...`.
Status ImmutableField(std::string_view kind, std::string_view name, std::string_view field, std::string_view value);
// The answer for a path the server does not serve (a status subresource the kind lacks): 404
// "the server could not find the requested resource".
Status ResourcePathNotFound();
// 400 BadRequest with the server's reason.
Status ServerBadRequest(std::string message);

}  // namespace ctrl::fake::internal
