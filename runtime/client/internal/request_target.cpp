#include "ctrl/client/internal/request_target.hpp"

#include <utility>

#include "ctrl/client/object_checks.hpp"

namespace ctrl::client::internal {
namespace {

Status CheckTypedKind(const GroupVersionKind& gvk, ObjectForm form, const scheme::Scheme& scheme) {
    if (form != ObjectForm::kTyped || scheme.Recognizes(gvk))
        return OkStatus();
    return scheme.New(gvk).GetStatus();  // the scheme's own NotRegistered status
}

}  // namespace

StatusOr<GroupVersionKind> KindOfObject(const Object& object, ObjectForm form, const scheme::Scheme& scheme) {
    CTRL_ASSIGN_OR_RETURN(GroupVersionKind gvk, client::KindOfObject(object));
    CTRL_RETURN_IF_ERROR(CheckTypedKind(gvk, form, scheme));
    return gvk;
}

StatusOr<GroupVersionKind> ItemKindOfList(const ObjectList& list, ObjectForm form, const scheme::Scheme& scheme) {
    CTRL_ASSIGN_OR_RETURN(GroupVersionKind item, client::ItemKindOfList(list));
    CTRL_RETURN_IF_ERROR(CheckTypedKind(item, form, scheme));
    return item;
}

rest::RequestBuilder RequestTarget::Request(std::string method, std::string_view sub_resource) const {
    rest::RequestBuilder builder(std::move(method));
    builder.GroupVersion(mapping.resource.ToGroupVersion()).Resource(mapping.resource.resource);
    if (!namespace_name.empty())
        builder.Namespace(namespace_name);
    if (!name.empty())
        builder.Name(name);
    if (!sub_resource.empty())
        builder.SubResource(sub_resource);
    return builder;
}

StatusOr<RequestTarget> TargetForNamed(const discovery::RESTMapping& mapping, const ObjectKey& key,
                                       std::string_view verb) {
    CTRL_RETURN_IF_ERROR(CheckNamedKey(mapping, key, verb));
    return RequestTarget{mapping, mapping.Namespaced() ? key.namespace_name : std::string(), key.name};
}

StatusOr<RequestTarget> TargetForCreate(const discovery::RESTMapping& mapping, const Object& object) {
    if (mapping.Namespaced() && object.Namespace().empty())
        return RequiredValue(mapping.gvk, object.Name(), "metadata.namespace",
                             mapping.resource.resource + " are namespaced; the namespace is empty");
    return RequestTarget{mapping, mapping.Namespaced() ? std::string(object.Namespace()) : std::string(), ""};
}

RequestTarget TargetForCollection(const discovery::RESTMapping& mapping, std::string_view namespace_name) {
    return RequestTarget{mapping, mapping.Namespaced() ? std::string(namespace_name) : std::string(), ""};
}

std::string AcceptFor(ObjectForm form, bool list) {
    if (form != ObjectForm::kMetadata)
        return "application/json";
    return list ? "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
                : "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";
}

Status DecodeObjectInto(std::string_view body, ObjectForm form, const GroupVersionKind& gvk, Object& object) {
    CTRL_ASSIGN_OR_RETURN(Object answer, Object::Parse(body));
    if (!answer.IsJsonObject())
        return BadRequestError("the server's answer for " + gvk.kind + " is not a JSON object");
    if (form == ObjectForm::kMetadata || answer.Kind().empty())
        answer.SetGroupVersionKind(gvk);
    object = std::move(answer);
    return OkStatus();
}

Status DecodeSubResourceAnswerInto(std::string_view body, ObjectForm form, const GroupVersionKind& gvk,
                                   Object& object) {
    CTRL_ASSIGN_OR_RETURN(Object answer, Object::Parse(body));
    if (!answer.IsJsonObject())
        return BadRequestError("the server's answer for " + gvk.kind + " is not a JSON object");
    if (form != ObjectForm::kMetadata && !answer.Kind().empty() &&
        (answer.Kind() != gvk.kind || answer.ApiVersion() != gvk.ApiVersion()))
        return OkStatus();  // another kind (a Scale): the object stays as it was
    return DecodeObjectInto(body, form, gvk, object);
}

Status DecodeListInto(std::string_view body, ObjectForm form, const GroupVersionKind& item_gvk, ObjectList& list) {
    CTRL_ASSIGN_OR_RETURN(ObjectList answer, ObjectList::Parse(body));
    if (form == ObjectForm::kMetadata || answer.Kind().empty()) {
        answer.SetItemGroupVersionKind(item_gvk);
        for (Object& item : answer.Items())
            item.SetGroupVersionKind(item_gvk);
    } else {
        CTRL_RETURN_IF_ERROR(answer.FillItemTypeMeta());
    }
    list = std::move(answer);
    return OkStatus();
}

bool IsResourcePathNotFound(const Status& status) {
    if (!IsNotFound(status))
        return false;
    // A group version the server no longer serves at all: its mux answers "404 page not found" in
    // plain text, which carries no Status reason.
    if (status.Reason().empty())
        return true;
    // A served group version without the resource; a missing object names itself instead
    // (`pods "x" not found`).
    return status.Message() == "the server could not find the requested resource";
}

}  // namespace ctrl::client::internal
