#include "ctrl/discovery/internal/aggregated_documents.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "ctrl/discovery/internal/response_kind.hpp"

namespace ctrl::discovery::internal {
namespace {

// Reads a responseKind object; kind is "" when it is null, absent or has no kind.
Status ReadResponseKind(const JsonValue& owner, const JsonPath& path, const FieldReader& reader,
                        std::string_view& group, std::string_view& version, std::string_view& kind) {
    group = version = kind = {};
    const JsonValue* response_kind = nullptr;
    CTRL_RETURN_IF_ERROR(reader.Object(owner, "responseKind", path, /*required=*/false, response_kind));
    if (response_kind == nullptr)
        return OkStatus();
    const JsonPath kind_path = path.Member("responseKind");
    CTRL_RETURN_IF_ERROR(reader.String(*response_kind, "group", kind_path, /*required=*/false, group));
    CTRL_RETURN_IF_ERROR(reader.String(*response_kind, "version", kind_path, /*required=*/false, version));
    return reader.String(*response_kind, "kind", kind_path, /*required=*/false, kind);
}

Status CheckSegment(std::string_view name, const JsonPath& path, std::string_view field, const FieldReader& reader) {
    if (name.find('/') == std::string_view::npos)
        return OkStatus();
    return reader.Error(path.Member(field), "\"" + std::string(name) + "\" contains '/'");
}

// The subresources of the resource parent_name (scope namespaced), appended to out.
Status ParseSubresources(const JsonValue& subresources, const JsonPath& path, std::string_view parent_name,
                         bool namespaced, const GroupVersion& gv, const FieldReader& reader,
                         std::vector<APIResource>& out) {
    for (rapidjson::SizeType i = 0; i < subresources.Size(); ++i) {
        const JsonValue& value = subresources[i];
        const JsonPath unnamed = path.Index(i);
        CTRL_RETURN_IF_ERROR(reader.ExpectObject(value, unnamed));
        std::string_view name;
        CTRL_RETURN_IF_ERROR(reader.String(value, "subresource", unnamed, /*required=*/true, name));
        const JsonPath sub_path = path.Index(i, name);
        CTRL_RETURN_IF_ERROR(CheckSegment(name, sub_path, "subresource", reader));
        std::string_view group, version, kind;
        CTRL_RETURN_IF_ERROR(ReadResponseKind(value, sub_path, reader, group, version, kind));
        std::vector<std::string> verbs;
        CTRL_RETURN_IF_ERROR(reader.StringArray(value, "verbs", sub_path, verbs));
        if (kind.empty())
            continue;
        APIResource& sub = out.emplace_back();
        sub.name.reserve(parent_name.size() + 1 + name.size());
        sub.name.append(parent_name).append(1, '/').append(name);
        sub.namespaced = namespaced;
        sub.kind.assign(kind);
        SetKindGroupVersion(sub, group, version, gv);
        sub.verbs = std::move(verbs);
    }
    return OkStatus();
}

// One APIResourceDiscovery and its subresources, appended to out.
Status ParseResource(const JsonValue& value, const JsonPath& resources_path, std::size_t index, const GroupVersion& gv,
                     const FieldReader& reader, std::vector<APIResource>& out) {
    const JsonPath unnamed = resources_path.Index(index);
    CTRL_RETURN_IF_ERROR(reader.ExpectObject(value, unnamed));
    std::string_view name;  // points into the document, which outlives this call
    CTRL_RETURN_IF_ERROR(reader.String(value, "resource", unnamed, /*required=*/true, name));
    const JsonPath path = resources_path.Index(index, name);
    CTRL_RETURN_IF_ERROR(CheckSegment(name, path, "resource", reader));

    APIResource resource;
    resource.name.assign(name);
    std::string_view scope;
    CTRL_RETURN_IF_ERROR(reader.String(value, "scope", path, /*required=*/true, scope));
    if (scope == "Namespaced") {
        resource.namespaced = true;
    } else if (scope != "Cluster") {
        return reader.Error(path.Member("scope"), "\"" + std::string(scope) + "\" is neither Namespaced nor Cluster");
    }
    std::string_view group, version, kind;
    CTRL_RETURN_IF_ERROR(ReadResponseKind(value, path, reader, group, version, kind));
    resource.kind.assign(kind);
    SetKindGroupVersion(resource, group, version, gv);
    CTRL_RETURN_IF_ERROR(reader.String(value, "singularResource", path, /*required=*/false, resource.singular_name));
    CTRL_RETURN_IF_ERROR(reader.StringArray(value, "verbs", path, resource.verbs));
    CTRL_RETURN_IF_ERROR(reader.StringArray(value, "shortNames", path, resource.short_names));
    CTRL_RETURN_IF_ERROR(reader.StringArray(value, "categories", path, resource.categories));

    const JsonValue* subresources = nullptr;
    CTRL_RETURN_IF_ERROR(reader.Array(value, "subresources", path, /*required=*/false, subresources));
    const bool namespaced = resource.namespaced;
    if (!kind.empty()) {
        out.push_back(std::move(resource));
    } else if (subresources == nullptr || subresources->Empty()) {
        return reader.Error(path.Member("responseKind").Member("kind"), "required field is missing");
    }
    if (subresources == nullptr)
        return OkStatus();
    return ParseSubresources(*subresources, path.Member("subresources"), name, namespaced, gv, reader, out);
}

// One APIVersionDiscovery of group.
Status ParseVersion(const JsonValue& value, const JsonPath& versions_path, std::size_t index, const std::string& group,
                    const FieldReader& reader, GroupVersionResources& out) {
    const JsonPath unnamed = versions_path.Index(index);
    CTRL_RETURN_IF_ERROR(reader.ExpectObject(value, unnamed));
    out.group_version.group = group;
    CTRL_RETURN_IF_ERROR(reader.String(value, "version", unnamed, /*required=*/true, out.group_version.version));
    const JsonPath path = versions_path.Index(index, out.group_version.version);
    std::string_view freshness;
    CTRL_RETURN_IF_ERROR(reader.String(value, "freshness", path, /*required=*/false, freshness));
    out.freshness = freshness.empty() || freshness == "Current" ? Freshness::kCurrent : Freshness::kStale;

    const JsonValue* resources = nullptr;
    CTRL_RETURN_IF_ERROR(reader.Array(value, "resources", path, /*required=*/false, resources));
    if (resources == nullptr)
        return OkStatus();
    out.resources.reserve(resources->Size() * 2);
    const JsonPath resources_path = path.Member("resources");
    for (rapidjson::SizeType i = 0; i < resources->Size(); ++i)
        CTRL_RETURN_IF_ERROR(
            ParseResource((*resources)[i], resources_path, i, out.group_version, reader, out.resources));
    return OkStatus();
}

// One APIGroupDiscovery, appended to out.
Status ParseGroup(const JsonValue& value, const JsonPath& items_path, std::size_t index, const FieldReader& reader,
                  AggregatedDiscovery& out) {
    const JsonPath unnamed = items_path.Index(index);
    CTRL_RETURN_IF_ERROR(reader.ExpectObject(value, unnamed));
    APIGroup& group = out.groups.emplace_back();
    const JsonValue* metadata = nullptr;
    CTRL_RETURN_IF_ERROR(reader.Object(value, "metadata", unnamed, /*required=*/false, metadata));
    if (metadata != nullptr)
        CTRL_RETURN_IF_ERROR(reader.String(*metadata, "name", unnamed.Member("metadata"), false, group.name));
    const JsonPath path = items_path.Index(index, group.name);

    const JsonValue* versions = nullptr;
    CTRL_RETURN_IF_ERROR(reader.Array(value, "versions", path, /*required=*/false, versions));
    if (versions == nullptr)
        return OkStatus();
    group.versions.reserve(versions->Size());
    const JsonPath versions_path = path.Member("versions");
    for (rapidjson::SizeType i = 0; i < versions->Size(); ++i) {
        GroupVersionResources& version = out.versions.emplace_back();
        CTRL_RETURN_IF_ERROR(ParseVersion((*versions)[i], versions_path, i, group.name, reader, version));
        group.versions.push_back(version.group_version.version);
    }
    return OkStatus();
}

}  // namespace

StatusOr<AggregatedDiscovery> ParseAPIGroupDiscoveryList(const JsonValue& root, const FieldReader& reader) {
    const JsonPath path;
    CTRL_RETURN_IF_ERROR(reader.ExpectObject(root, path));
    CTRL_RETURN_IF_ERROR(reader.ExpectKind(root, "APIGroupDiscoveryList"));
    const JsonValue* items = nullptr;
    CTRL_RETURN_IF_ERROR(reader.Array(root, "items", path, /*required=*/true, items));
    AggregatedDiscovery out;
    if (items == nullptr)
        return out;
    out.groups.reserve(items->Size());
    const JsonPath items_path = path.Member("items");
    for (rapidjson::SizeType i = 0; i < items->Size(); ++i)
        CTRL_RETURN_IF_ERROR(ParseGroup((*items)[i], items_path, i, reader, out));
    return out;
}

}  // namespace ctrl::discovery::internal
