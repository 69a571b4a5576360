#include "ctrl/discovery/discovery_client.hpp"

#include <chrono>
#include <string>
#include <string_view>
#include <utility>

#include "ctrl/discovery/internal/content_type.hpp"
#include "ctrl/discovery/internal/discovery_documents.hpp"

namespace ctrl::discovery {
namespace {

using Clock = std::chrono::steady_clock;
using internal::RootDocument;

// Group names are DNS subdomains and versions DNS labels; anything else would change the path.
bool IsPathSegment(std::string_view s) {
    if (s.empty() || s == "." || s == "..")
        return false;
    for (char c : s) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                        c == '.' || c == '_';
        if (!ok)
            return false;
    }
    return true;
}

// Counts one discovery request and observes how long it took, by its outcome.
void Record(const DiscoveryMetrics& metrics, std::string_view path_kind, const Status& status,
            Clock::time_point start) {
    std::string_view result = kResultSuccess;
    if (!status.Ok())
        result = IsNotFound(status) ? kResultNotFound : kResultError;
    const std::string kind_label(path_kind);
    metrics.requests_total.WithLabelValues({kind_label, std::string(result)}).Inc();
    metrics.request_duration_seconds.WithLabelValues({kind_label})
        .Observe(std::chrono::duration<double>(Clock::now() - start).count());
}

// A failed group version request: NotFound says which group version the server does not serve.
Status GroupVersionError(const Status& status, const GroupVersion& gv) {
    if (IsNotFound(status))
        return status.Annotate("the server does not serve group version \"" + gv.String() + "\"");
    return status.Annotate("discovery of group version \"" + gv.String() + "\"");
}

rest::HttpRequest Get(std::string path, std::string_view accept) {
    rest::HttpRequest request;
    request.method = "GET";
    request.target = std::move(path);
    request.SetHeader("Accept", std::string(accept));
    return request;
}

// GET /api (core) or GET /apis, asking for aggregated discovery or not: 1 request.
Task<StatusOr<RootDocument>> FetchRootDocument(Context ctx, rest::RestClient& client, const DiscoveryMetrics& metrics,
                                               bool core, bool aggregated) {
    const std::string path = core ? "/api" : "/apis";
    const std::string document = "GET " + path;
    const std::string_view accept = aggregated ? internal::kAggregatedDiscoveryAccept : internal::kJsonAccept;
    const Clock::time_point start = Clock::now();
    StatusOr<rest::HttpResponse> response = co_await client.Do(std::move(ctx), Get(path, accept));
    StatusOr<RootDocument> parsed =
        response.Ok()
            ? internal::ParseRootDocument(response->body, response->FindHeader("Content-Type"), core, document)
            : StatusOr<RootDocument>(response.GetStatus().Annotate("discovery"));
    Record(metrics, aggregated ? kPathKindAggregated : kPathKindLegacyGroupList, parsed.GetStatus(), start);
    co_return parsed;
}

}  // namespace

DiscoveryClient::DiscoveryClient(rest::RestClient& client, DiscoveryOptions options, metrics::Registry& registry)
    : client_(client), options_(options), metrics_(registry) {}

Task<StatusOr<RootDiscovery>> DiscoveryClient::FetchRoot(Context ctx) {
    CTRL_CO_ASSIGN_OR_RETURN(RootDocument core,
                             co_await FetchRootDocument(ctx, client_, metrics_, /*core=*/true, options_.aggregated));
    CTRL_CO_ASSIGN_OR_RETURN(RootDocument named,
                             co_await FetchRootDocument(ctx, client_, metrics_, /*core=*/false, options_.aggregated));
    RootDiscovery out;
    out.aggregated = core.aggregated && named.aggregated;
    out.groups = std::move(core.groups);
    out.groups.insert(out.groups.end(), std::make_move_iterator(named.groups.begin()),
                      std::make_move_iterator(named.groups.end()));
    if (out.aggregated) {
        out.versions = std::move(core.versions);
        out.versions.insert(out.versions.end(), std::make_move_iterator(named.versions.begin()),
                            std::make_move_iterator(named.versions.end()));
    }
    co_return out;
}

Task<StatusOr<RootDiscovery>> DiscoveryClient::FetchRootSide(Context ctx, bool core) {
    CTRL_CO_ASSIGN_OR_RETURN(RootDocument document,
                             co_await FetchRootDocument(std::move(ctx), client_, metrics_, core, options_.aggregated));
    RootDiscovery out;
    out.aggregated = document.aggregated;
    out.groups = std::move(document.groups);
    if (out.aggregated)
        out.versions = std::move(document.versions);
    co_return out;
}

Task<StatusOr<std::vector<APIGroup>>> DiscoveryClient::FetchGroupList(Context ctx, bool core) {
    CTRL_CO_ASSIGN_OR_RETURN(RootDocument document,
                             co_await FetchRootDocument(std::move(ctx), client_, metrics_, core, /*aggregated=*/false));
    co_return std::move(document.groups);
}

Task<StatusOr<GroupVersionResources>> DiscoveryClient::FetchGroupVersion(Context ctx, GroupVersion gv) {
    if (!IsPathSegment(gv.version) || (!gv.group.empty() && !IsPathSegment(gv.group))) {
        co_return BadRequestError("cannot discover group version \"" + gv.String() +
                                  "\": the group or version is not a valid path segment");
    }
    const std::string path = gv.group.empty() ? "/api/" + gv.version : "/apis/" + gv.group + "/" + gv.version;
    const std::string document = "GET " + path;
    const Clock::time_point start = Clock::now();
    StatusOr<rest::HttpResponse> response = co_await client_.Do(std::move(ctx), Get(path, internal::kJsonAccept));
    StatusOr<GroupVersionResources> parsed =
        response.Ok() ? internal::ParseGroupVersionDocument(response->body, gv, document)
                      : StatusOr<GroupVersionResources>(GroupVersionError(response.GetStatus(), gv));
    Record(metrics_, kPathKindGroupVersion, parsed.GetStatus(), start);
    co_return parsed;
}

}  // namespace ctrl::discovery
