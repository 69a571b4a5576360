#pragma once

#include <vector>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/discovery/api_resource.hpp"
#include "ctrl/discovery/discovery_metrics.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/rest_client.hpp"

namespace ctrl::discovery {

// How discovery talks to the server.
struct DiscoveryOptions {
    // Ask for aggregated discovery (apidiscovery.k8s.io v2, then v2beta1) on /api and /apis.
    // false: send a plain JSON Accept, so the server answers with the legacy documents (tests
    // use this to force the legacy path).
    bool aggregated = true;
};

// What GET /api and GET /apis returned: every group (preferred version first), and, when the
// server answered in the aggregated form, every version's resources too.
struct RootDiscovery {
    bool aggregated = false;
    std::vector<APIGroup> groups;                 // core group ("") first when present
    std::vector<GroupVersionResources> versions;  // empty unless aggregated
};

// Reads the API server's discovery documents (client-go's DiscoveryClient, for what a
// RESTMapper needs). Each HTTP request is counted in
// ctrl_discovery_requests_total{path_kind="aggregated"|"legacy_group_list"|"group_version",
// result="success"|"not_found"|"error"}. A 404 is NotFound; a 5xx, timeout or connection
// failure keeps its code (Unavailable, Timeout, ...) and is never NotFound. Thread-safe.
class DiscoveryClient final {
  public:
    DiscoveryClient(rest::RestClient& client, DiscoveryOptions options,
                    metrics::Registry& registry = metrics::DefaultRegistry());

    // GET /api and GET /apis (2 requests, one after the other), aggregated when the server and the
    // options allow. aggregated is true only when both answers were; otherwise versions is empty.
    Task<StatusOr<RootDiscovery>> FetchRoot(Context ctx);
    // One half of FetchRoot (1 request): GET /api for the core group (core == true), else GET /apis
    // for every named group, aggregated when the server and the options allow.
    Task<StatusOr<RootDiscovery>> FetchRootSide(Context ctx, bool core);
    // The legacy group list of one side: GET /api for the core group (core == true), else
    // GET /apis for every named group (1 request).
    Task<StatusOr<std::vector<APIGroup>>> FetchGroupList(Context ctx, bool core);
    // GET /api/<v> or /apis/<g>/<v> (1 request): the group version's resources. NotFound (naming
    // the group version) when the server does not serve it; BadRequest, without a request, for a
    // group or version that cannot be a path segment. gv is taken by value: the Task may run after
    // the caller's temporary is gone.
    Task<StatusOr<GroupVersionResources>> FetchGroupVersion(Context ctx, GroupVersion gv);

    const DiscoveryOptions& Options() const { return options_; }

  private:
    rest::RestClient& client_;
    DiscoveryOptions options_;
    DiscoveryMetrics metrics_;
};

}  // namespace ctrl::discovery
