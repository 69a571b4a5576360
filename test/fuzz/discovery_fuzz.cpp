// Discovery documents: any body, for GET /api or GET /apis, aggregated or legacy by content type,
// and for one group version, either fails with a BadRequest or gives groups and resources that a
// mapping snapshot indexes and answers lookups from without a crash; every mapping it answers is
// of the kind asked for.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ctrl/discovery/internal/discovery_documents.hpp"
#include "ctrl/discovery/internal/mapping_snapshot.hpp"
#include "test/fuzz/fuzz_input.hpp"

namespace ctrl::fuzz {
namespace {

using discovery::internal::MappingSnapshot;

void LookUpEveryResource(const MappingSnapshot& snapshot, const discovery::GroupVersionResources& version) {
    for (const discovery::APIResource& resource : version.resources) {
        const GroupKind kind(resource.group.empty() ? version.group_version.group : resource.group, resource.kind);
        // The kind's name only: a resource whose responseKind names another group is indexed under
        // one of the two (what a malformed document means is not settled here).
        for (const discovery::RESTMapping& mapping : snapshot.MappingsFor(kind, {}))
            if (mapping.gvk.kind != kind.kind)
                PropertyFailed("a mapping of another kind than asked", kind.group + "/" + kind.kind);
        const GroupVersionResource plural(version.group_version.group, version.group_version.version, resource.name);
        (void)snapshot.MappingsForResource(plural);
        (void)snapshot.Singular(resource.name);
    }
    (void)snapshot.VersionsOf(version.group_version.group);
    (void)snapshot.AllVersionsLoaded(version.group_version.group);
}

void CheckRoot(std::string_view body, std::optional<std::string_view> content_type, bool core) {
    const StatusOr<discovery::internal::RootDocument> root =
        discovery::internal::ParseRootDocument(body, content_type, core, core ? "GET /api" : "GET /apis");
    ExpectOkOrBadRequest(root.GetStatus(), "a root discovery error that is not BadRequest");
    if (!root.Ok())
        return;
    MappingSnapshot snapshot;
    const auto now = MappingSnapshot::Clock::now();
    for (const discovery::APIGroup& group : root.Value().groups)
        snapshot.groups[group.name] = MappingSnapshot::Group{group.versions, now};
    for (const discovery::GroupVersionResources& version : root.Value().versions)
        snapshot.versions[version.group_version] = MappingSnapshot::Version{version, now};
    (core ? snapshot.core_list_known : snapshot.named_list_known) = true;
    snapshot.Index();
    for (const discovery::GroupVersionResources& version : root.Value().versions)
        LookUpEveryResource(snapshot, version);
}

void CheckGroupVersion(std::string_view body) {
    const GroupVersion gv("fuzz.ctrl.dev", "v1");
    const StatusOr<discovery::GroupVersionResources> version =
        discovery::internal::ParseGroupVersionDocument(body, gv, "GET /apis/fuzz.ctrl.dev/v1");
    ExpectOkOrBadRequest(version.GetStatus(), "a group version discovery error that is not BadRequest");
    if (!version.Ok())
        return;
    MappingSnapshot snapshot;
    snapshot.groups[gv.group] = MappingSnapshot::Group{{gv.version}, MappingSnapshot::Clock::now()};
    snapshot.versions[gv] = MappingSnapshot::Version{version.Value(), MappingSnapshot::Clock::now()};
    snapshot.Index();
    LookUpEveryResource(snapshot, version.Value());
}

}  // namespace
}  // namespace ctrl::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    ctrl::fuzz::FuzzInput input(data, size);
    const std::uint8_t choice = input.TakeByte();
    const std::string_view body = input.TakeRest();
    const bool core = (choice & 1) != 0;
    std::optional<std::string_view> content_type;
    switch ((choice >> 1) % 3) {
        case 0:
            content_type = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
            break;
        case 1:
            content_type = "application/json";
            break;
        default:
            break;
    }
    ctrl::fuzz::CheckRoot(body, content_type, core);
    ctrl::fuzz::CheckGroupVersion(body);
    return 0;
}
