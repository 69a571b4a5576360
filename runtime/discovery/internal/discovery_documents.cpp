#include "ctrl/discovery/internal/discovery_documents.hpp"

#include <cstddef>
#include <string>
#include <utility>

#include "ctrl/core/internal/json.hpp"
#include "ctrl/discovery/internal/aggregated_documents.hpp"
#include "ctrl/discovery/internal/content_type.hpp"
#include "ctrl/discovery/internal/json_reader.hpp"
#include "ctrl/discovery/internal/legacy_documents.hpp"

namespace ctrl::discovery::internal {
namespace {

using ctrl::internal::JsonDocument;

// Discovery bodies run to hundreds of KB and are dropped after reading: large pool chunks.
constexpr std::size_t kDocumentChunkBytes = 64 * 1024;

Status ParseBody(std::string_view body, std::string_view document, JsonDocument& into) {
    Status status = ctrl::internal::ParseJson(body, into);
    if (status.Ok())
        return status;
    return status.Annotate("malformed discovery document (" + std::string(document) + ")");
}

// Aggregated groups served at the wrong root would be mapped to the wrong paths.
Status CheckGroupNames(const std::vector<APIGroup>& groups, bool core, const FieldReader& reader) {
    const JsonPath items;
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const std::string& name = groups[i].name;
        if (core && !name.empty()) {
            return reader.Error(items.Member("items").Index(i, name).Member("metadata").Member("name"),
                                "names a group, but /api serves only the core group");
        }
        if (!core && name.empty())
            return reader.Error(items.Member("items").Index(i).Member("metadata").Member("name"),
                                "required field is missing");
    }
    return OkStatus();
}

}  // namespace

StatusOr<RootDocument> ParseRootDocument(std::string_view body, std::optional<std::string_view> content_type, bool core,
                                         std::string_view document) {
    JsonDocument json(kDocumentChunkBytes);
    CTRL_RETURN_IF_ERROR(ParseBody(body, document, json));
    const FieldReader reader(document);
    const ctrl::internal::JsonValue& root = json.Root();
    CTRL_RETURN_IF_ERROR(reader.ExpectObject(root, JsonPath()));

    RootDocument out;
    out.aggregated = (content_type && IsAggregatedDiscoveryContentType(*content_type)) ||
                     ctrl::internal::JsonStringMember(root, "kind") == "APIGroupDiscoveryList";
    if (out.aggregated) {
        CTRL_ASSIGN_OR_RETURN(AggregatedDiscovery aggregated, ParseAPIGroupDiscoveryList(root, reader));
        CTRL_RETURN_IF_ERROR(CheckGroupNames(aggregated.groups, core, reader));
        out.groups = std::move(aggregated.groups);
        out.versions = std::move(aggregated.versions);
    } else if (core) {
        CTRL_ASSIGN_OR_RETURN(APIGroup group, ParseAPIVersions(root, reader));
        out.groups.push_back(std::move(group));
    } else {
        CTRL_ASSIGN_OR_RETURN(out.groups, ParseAPIGroupList(root, reader));
    }
    return out;
}

StatusOr<GroupVersionResources> ParseGroupVersionDocument(std::string_view body, const GroupVersion& gv,
                                                          std::string_view document) {
    JsonDocument json(kDocumentChunkBytes);
    CTRL_RETURN_IF_ERROR(ParseBody(body, document, json));
    return ParseAPIResourceList(json.Root(), gv, FieldReader(document));
}

}  // namespace ctrl::discovery::internal
