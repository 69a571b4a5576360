#include "ctrl/discovery/internal/legacy_documents.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "ctrl/discovery/internal/response_kind.hpp"

namespace ctrl::discovery::internal {
namespace {

// One APIGroup of an APIGroupList.
Status ParseGroup(const JsonValue& value, const JsonPath& groups_path, std::size_t index, const FieldReader& reader,
                  APIGroup& group) {
    const JsonPath path = groups_path.Index(index);
    CTRL_RETURN_IF_ERROR(reader.ExpectObject(value, path));
    CTRL_RETURN_IF_ERROR(reader.String(value, "name", path, /*required=*/true, group.name));
    const JsonPath group_path = groups_path.Index(index, group.name);

    const JsonValue* preferred_object = nullptr;
    CTRL_RETURN_IF_ERROR(reader.Object(value, "preferredVersion", group_path, /*required=*/false, preferred_object));
    std::string_view preferred;
    if (preferred_object != nullptr) {
        CTRL_RETURN_IF_ERROR(reader.String(*preferred_object, "version", group_path.Member("preferredVersion"),
                                           /*required=*/true, preferred));
        group.versions.emplace_back(preferred);
    }

    const JsonValue* versions = nullptr;
    CTRL_RETURN_IF_ERROR(reader.Array(value, "versions", group_path, /*required=*/true, versions));
    if (versions == nullptr)
        return OkStatus();
    group.versions.reserve(versions->Size() + (preferred.empty() ? 0 : 1));
    const JsonPath versions_path = group_path.Member("versions");
    for (rapidjson::SizeType i = 0; i < versions->Size(); ++i) {
        const JsonValue& entry = (*versions)[i];
        const JsonPath entry_path = versions_path.Index(i);
        CTRL_RETURN_IF_ERROR(reader.ExpectObject(entry, entry_path));
        std::string_view version;
        CTRL_RETURN_IF_ERROR(reader.String(entry, "version", entry_path, /*required=*/true, version));
        if (version != preferred)
            group.versions.emplace_back(version);
    }
    return OkStatus();
}

// One APIResource of an APIResourceList.
Status ParseResource(const JsonValue& value, const JsonPath& resources_path, std::size_t index, const GroupVersion& gv,
                     const FieldReader& reader, APIResource& resource) {
    const JsonPath path = resources_path.Index(index);
    CTRL_RETURN_IF_ERROR(reader.ExpectObject(value, path));
    CTRL_RETURN_IF_ERROR(reader.String(value, "name", path, /*required=*/true, resource.name));
    const JsonPath resource_path = resources_path.Index(index, resource.name);
    CTRL_RETURN_IF_ERROR(reader.String(value, "kind", resource_path, /*required=*/true, resource.kind));
    CTRL_RETURN_IF_ERROR(
        reader.String(value, "singularName", resource_path, /*required=*/false, resource.singular_name));
    CTRL_RETURN_IF_ERROR(reader.Bool(value, "namespaced", resource_path, /*required=*/false, resource.namespaced));
    std::string_view group;
    std::string_view version;
    CTRL_RETURN_IF_ERROR(reader.String(value, "group", resource_path, /*required=*/false, group));
    CTRL_RETURN_IF_ERROR(reader.String(value, "version", resource_path, /*required=*/false, version));
    SetKindGroupVersion(resource, group, version, gv);
    CTRL_RETURN_IF_ERROR(reader.StringArray(value, "verbs", resource_path, resource.verbs));
    CTRL_RETURN_IF_ERROR(reader.StringArray(value, "shortNames", resource_path, resource.short_names));
    CTRL_RETURN_IF_ERROR(reader.StringArray(value, "categories", resource_path, resource.categories));
    return OkStatus();
}

}  // namespace

StatusOr<APIGroup> ParseAPIVersions(const JsonValue& root, const FieldReader& reader) {
    const JsonPath path;
    CTRL_RETURN_IF_ERROR(reader.ExpectObject(root, path));
    CTRL_RETURN_IF_ERROR(reader.ExpectKind(root, "APIVersions"));
    APIGroup group;
    CTRL_RETURN_IF_ERROR(reader.StringArray(root, "versions", path, group.versions));
    if (ctrl::internal::FindJsonMember(root, "versions") == nullptr)
        return reader.Error(path.Member("versions"), "required field is missing");
    for (std::size_t i = 0; i < group.versions.size(); ++i) {
        if (group.versions[i].empty())
            return reader.Error(path.Member("versions").Index(i), "is empty");
    }
    return group;
}

StatusOr<std::vector<APIGroup>> ParseAPIGroupList(const JsonValue& root, const FieldReader& reader) {
    const JsonPath path;
    CTRL_RETURN_IF_ERROR(reader.ExpectObject(root, path));
    CTRL_RETURN_IF_ERROR(reader.ExpectKind(root, "APIGroupList"));
    const JsonValue* groups = nullptr;
    CTRL_RETURN_IF_ERROR(reader.Array(root, "groups", path, /*required=*/true, groups));
    std::vector<APIGroup> out;
    if (groups == nullptr)
        return out;
    out.resize(groups->Size());
    const JsonPath groups_path = path.Member("groups");
    for (rapidjson::SizeType i = 0; i < groups->Size(); ++i)
        CTRL_RETURN_IF_ERROR(ParseGroup((*groups)[i], groups_path, i, reader, out[i]));
    return out;
}

StatusOr<GroupVersionResources> ParseAPIResourceList(const JsonValue& root, const GroupVersion& gv,
                                                     const FieldReader& reader) {
    const JsonPath path;
    CTRL_RETURN_IF_ERROR(reader.ExpectObject(root, path));
    CTRL_RETURN_IF_ERROR(reader.ExpectKind(root, "APIResourceList"));
    std::string_view group_version;
    CTRL_RETURN_IF_ERROR(reader.String(root, "groupVersion", path, /*required=*/false, group_version));
    if (!group_version.empty() && group_version != gv.String()) {
        return reader.Error(path.Member("groupVersion"),
                            "is \"" + std::string(group_version) + "\", expected \"" + gv.String() + "\"");
    }
    const JsonValue* resources = nullptr;
    CTRL_RETURN_IF_ERROR(reader.Array(root, "resources", path, /*required=*/true, resources));
    GroupVersionResources out;
    out.group_version = gv;
    if (resources == nullptr)
        return out;
    out.resources.resize(resources->Size());
    const JsonPath resources_path = path.Member("resources");
    for (rapidjson::SizeType i = 0; i < resources->Size(); ++i)
        CTRL_RETURN_IF_ERROR(ParseResource((*resources)[i], resources_path, i, gv, reader, out.resources[i]));
    return out;
}

}  // namespace ctrl::discovery::internal
