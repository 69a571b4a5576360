#include "runtime/client/internal/request_target.hpp"

#include <utility>

namespace ctrl::client::internal {
namespace {

constexpr std::string_view kListSuffix = "List";

Status Required(const GroupVersionKind& gvk, std::string_view name, std::string_view field, std::string_view why) {
    std::string message = gvk.kind + " \"" + std::string(name) + "\" is invalid: " + std::string(field) +
                          ": Required value: " + std::string(why);
    return InvalidError(std::move(message), {StatusCause{"FieldValueRequired", "Required value", std::string(field)}});
}

Status CheckTypedKind(const GroupVersionKind& gvk, ObjectForm form, const scheme::Scheme& scheme) {
    if (form != ObjectForm::kTyped || scheme.Recognizes(gvk))
        return OkStatus();
    return scheme.New(gvk).GetStatus();  // the scheme's own NotRegistered status
}

}  // namespace

StatusOr<GroupVersionKind> KindOfObject(const Object& object, ObjectForm form, const scheme::Scheme& scheme) {
    if (object.Kind().empty())
        return BadRequestError("Object 'Kind' is missing in object \"" + object.Key().String() +
                               "\": set apiVersion and kind (a typed kind sets them itself)");
    StatusOr<GroupVersionKind> gvk = object.GetGroupVersionKind();
    if (!gvk.Ok())
        return gvk.GetStatus().Annotate("object \"" + object.Key().String() + "\"");
    CTRL_RETURN_IF_ERROR(CheckTypedKind(gvk.Value(), form, scheme));
    return gvk;
}

StatusOr<GroupVersionKind> ItemKindOfList(const ObjectList& list, ObjectForm form, const scheme::Scheme& scheme) {
    const std::string_view kind = list.Kind();
    if (kind.empty())
        return BadRequestError("list 'Kind' is missing: set the list's apiVersion and kind (\"PodList\")");
    if (kind.size() <= kListSuffix.size() || !kind.ends_with(kListSuffix))
        return BadRequestError("list kind \"" + std::string(kind) +
                               "\" does not end in \"List\": the client lists a kind through its list kind");
    CTRL_ASSIGN_OR_RETURN(GroupVersionKind item, list.ItemGroupVersionKind());
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
    if (key.name.empty())
        return Required(mapping.gvk, key.name, "metadata.name",
                        "a " + std::string(verb) + " names one object; the name is empty");
    if (mapping.Namespaced() && key.namespace_name.empty())
        return Required(mapping.gvk, key.name, "metadata.namespace",
                        mapping.resource.resource + " are namespaced; the namespace is empty");
    return RequestTarget{mapping, mapping.Namespaced() ? key.namespace_name : std::string(), key.name};
}

StatusOr<RequestTarget> TargetForCreate(const discovery::RESTMapping& mapping, const Object& object) {
    if (mapping.Namespaced() && object.Namespace().empty())
        return Required(mapping.gvk, object.Name(), "metadata.namespace",
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
    // The API server's answer for a path no handler serves; a missing object names itself
    // (`pods "x" not found`).
    return IsNotFound(status) && status.Message() == "the server could not find the requested resource";
}

}  // namespace ctrl::client::internal
