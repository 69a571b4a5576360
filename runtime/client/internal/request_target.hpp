#pragma once

#include <string>
#include <string_view>

#include "ctrl/client/object_form.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/discovery/rest_mapper.hpp"
#include "ctrl/rest/request_builder.hpp"
#include "ctrl/rest/transport.hpp"
#include "ctrl/scheme/scheme.hpp"

namespace ctrl::client::internal {

// client::KindOfObject, and for a typed kind also registered in scheme: NotRegistered (NotFound)
// when the scheme lacks it.
StatusOr<GroupVersionKind> KindOfObject(const Object& object, ObjectForm form, const scheme::Scheme& scheme);
// client::ItemKindOfList, with the same scheme check.
StatusOr<GroupVersionKind> ItemKindOfList(const ObjectList& list, ObjectForm form, const scheme::Scheme& scheme);

// What a request needs to know of the object: which resource, in which namespace.
struct RequestTarget {
    discovery::RESTMapping mapping{};
    std::string namespace_name{};  // empty for a cluster-scoped kind
    std::string name{};

    // A request on the target: `/api(s)/<gv>/[namespaces/<ns>/]<resource>[/<name>][/<sub>]`.
    rest::RequestBuilder Request(std::string method, std::string_view sub_resource = {}) const;
};

// The target of a request (verb: "get", "update", ...) on one named object of mapping's kind, after
// client::CheckNamedKey. A cluster-scoped kind drops the namespace, as client-go does.
StatusOr<RequestTarget> TargetForNamed(const discovery::RESTMapping& mapping, const ObjectKey& key,
                                       std::string_view verb);
// The same for a create: the name may be empty (generateName), the namespace may not.
StatusOr<RequestTarget> TargetForCreate(const discovery::RESTMapping& mapping, const Object& object);
// The same for a collection (list, deletecollection): any namespace, or all when empty.
RequestTarget TargetForCollection(const discovery::RESTMapping& mapping, std::string_view namespace_name);

// The Accept header for an answer in form: the metadata form asks for PartialObjectMetadata(List).
std::string AcceptFor(ObjectForm form, bool list);

// Takes the server's answer (a JSON object) into object; a metadata-form answer gets gvk back as
// its apiVersion and kind. BadRequest, with object unchanged, for a body that is not an object.
Status DecodeObjectInto(std::string_view body, ObjectForm form, const GroupVersionKind& gvk, Object& object);
// The answer of a subresource write sent from object itself: taken into object when it is of
// object's kind (status answers with the whole object); an answer of another kind (a Scale)
// leaves object as it was.
Status DecodeSubResourceAnswerInto(std::string_view body, ObjectForm form, const GroupVersionKind& gvk, Object& object);
// Takes a List answer into list; items get their apiVersion and kind (item_gvk's for the metadata
// form, whose list gets item_gvk's list kind back).
Status DecodeListInto(std::string_view body, ObjectForm form, const GroupVersionKind& item_gvk, ObjectList& list);

// Whether a NotFound is the server's "no such resource path" (the resource is not served, so the
// mapper's knowledge of its group version is stale), not "no such object".
bool IsResourcePathNotFound(const Status& status);

}  // namespace ctrl::client::internal
