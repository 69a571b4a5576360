#include "ctrl/client/object_checks.hpp"

#include <string>
#include <utility>

namespace ctrl::client {
namespace {

constexpr std::string_view kListSuffix = "List";

}  // namespace

StatusOr<GroupVersionKind> KindOfObject(const Object& object) {
    if (object.Kind().empty())
        return BadRequestError("Object 'Kind' is missing in object \"" + object.Key().String() +
                               "\": set apiVersion and kind (a typed kind sets them itself)");
    StatusOr<GroupVersionKind> gvk = object.GetGroupVersionKind();
    if (!gvk.Ok())
        return gvk.GetStatus().Annotate("object \"" + object.Key().String() + "\"");
    return gvk;
}

StatusOr<GroupVersionKind> ItemKindOfList(const ObjectList& list) {
    const std::string_view kind = list.Kind();
    if (kind.empty())
        return BadRequestError("list 'Kind' is missing: set the list's apiVersion and kind (\"PodList\")");
    if (kind.size() <= kListSuffix.size() || !kind.ends_with(kListSuffix))
        return BadRequestError("list kind \"" + std::string(kind) +
                               "\" does not end in \"List\": the client lists a kind through its list kind");
    return list.ItemGroupVersionKind();
}

Status CheckNamedKey(const discovery::RESTMapping& mapping, const ObjectKey& key, std::string_view verb) {
    if (key.name.empty())
        return RequiredValue(mapping.gvk, key.name, "metadata.name",
                             "a " + std::string(verb) + " names one object; the name is empty");
    if (mapping.Namespaced() && key.namespace_name.empty())
        return RequiredValue(mapping.gvk, key.name, "metadata.namespace",
                             mapping.resource.resource + " are namespaced; the namespace is empty");
    return OkStatus();
}

Status MetadataOnlyWrite(std::string_view verb) {
    return BadRequestError("cannot " + std::string(verb) +
                           " using only metadata: use a typed or unstructured object (metadata-only objects can "
                           "be read, patched and deleted)");
}

Status CheckPatchOptions(PatchType type, bool force, std::string_view field_manager) {
    if (force && type != PatchType::kApply)
        return BadRequestError("force is only valid for server-side apply patches");
    if (type == PatchType::kApply && field_manager.empty())
        return InvalidError(
            "server-side apply needs a field manager: set PatchOptions.field_owner or the client's "
            "Options.field_owner",
            {StatusCause{"FieldValueRequired", "Required value", "fieldManager"}});
    return OkStatus();
}

Status CheckDeleteAllOfNamespace(const discovery::RESTMapping& mapping, std::string_view namespace_name) {
    if (!mapping.Namespaced() || !namespace_name.empty())
        return OkStatus();
    return InvalidError("DeleteAllOf " + mapping.resource.resource +
                            ": the kind is namespaced and the API deletes a collection in one namespace; set "
                            "list.namespace_name",
                        {StatusCause{"FieldValueRequired", "Required value", "metadata.namespace"}});
}

Status RequiredValue(const GroupVersionKind& gvk, std::string_view name, std::string_view field, std::string_view why) {
    std::string message = gvk.kind + " \"" + std::string(name) + "\" is invalid: " + std::string(field) +
                          ": Required value: " + std::string(why);
    return InvalidError(std::move(message), {StatusCause{"FieldValueRequired", "Required value", std::string(field)}});
}

}  // namespace ctrl::client
