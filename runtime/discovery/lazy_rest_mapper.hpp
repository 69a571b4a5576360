#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "ctrl/core/internal/locked_slot.hpp"
#include "ctrl/discovery/discovery_client.hpp"
#include "ctrl/discovery/internal/mapping_snapshot.hpp"
#include "ctrl/discovery/internal/single_flight.hpp"
#include "ctrl/discovery/rest_mapper.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/rate_limiter.hpp"

namespace ctrl::discovery {

// Tuning of the lazy mapper's re-discovery.
struct LazyRESTMapperOptions {
    // Rounds of re-discovery a miss may start, per round key: one group on the legacy path; with
    // aggregated discovery one document (GET /api for the core group, GET /apis for the named
    // groups; both for the first round and a singular-name search): a burst, then this many per
    // second. A miss past the limit is answered from the last round, which is then at most
    // ~1/rate old.
    int rediscovery_burst = 5;
    double rediscovery_per_second = 1.0;
};

// A RESTMapper that discovers only what lookups ask for, and never caches a miss for good
// (docs/restmapper.md, points 1-9):
//  - Nothing is requested before the first lookup; a lookup of a known kind makes no request
//    and never waits for a reload (readers use an immutable snapshot; a reload publishes the
//    next one).
//  - With aggregated discovery the first round is GET /api + GET /apis (the answers say whether
//    the server serves it) and loads everything. Later rounds fetch only the document that lists
//    the group looked up, 1 request: GET /apis for a named group (a CRD's), replacing every named
//    group and keeping the core group as it was; GET /api for the core group, keeping the named
//    groups. So a controller retrying a CRD kind the server does not serve yet costs 1 request
//    per retry. Without aggregated discovery a round fetches what the lookup needs: one request
//    per group version, plus the group list when the lookup names no version and no earlier
//    round's list names the group (or its versions do not answer): N kinds in N groups cost N
//    requests with versions named, 1 + N without.
//  - A miss starts a round (a CRD created after start, a new version of a cached group, a new
//    kind in a cached group version are all found); a round that finds a group version gone
//    (404) or a group no longer listed drops it, so its kinds become NoMatch.
//  - A 404 from discovery is NoMatch; 5xx, timeouts and connection failures are Unavailable
//    (or Timeout) and leave the cached data untouched.
//  - Concurrent misses that need the same round share it (SingleFlight, by round key: the
//    group on the legacy path, the document with aggregated discovery, so that misses of
//    different CRD groups share one GET /apis); rounds per key are rate limited
//    (LazyRESTMapperOptions), so misses of a kind that does not exist cost at most
//    burst + rate x seconds rounds, 1 request each with aggregated discovery (after the first).
//  - Lookups are counted in ctrl_restmapper_lookups_total{result="hit"|"miss_resolved"|
//    "no_match"|"error"}; discovery requests by the DiscoveryClient.
// Thread-safe; lookups may run on any executor.
class LazyRESTMapper final : public RESTMapper {
  public:
    LazyRESTMapper(std::shared_ptr<DiscoveryClient> discovery, LazyRESTMapperOptions options = {},
                   metrics::Registry& registry = metrics::DefaultRegistry());

    Task<StatusOr<GroupVersionKind>> KindFor(Context ctx, GroupVersionResource resource) override;
    Task<StatusOr<std::vector<GroupVersionKind>>> KindsFor(Context ctx, GroupVersionResource resource) override;
    Task<StatusOr<GroupVersionResource>> ResourceFor(Context ctx, GroupVersionResource input) override;
    Task<StatusOr<std::vector<GroupVersionResource>>> ResourcesFor(Context ctx, GroupVersionResource input) override;
    Task<StatusOr<discovery::RESTMapping>> RESTMapping(Context ctx, GroupKind kind,
                                                       std::vector<std::string> versions) override;
    Task<StatusOr<std::vector<discovery::RESTMapping>>> RESTMappings(Context ctx, GroupKind kind,
                                                                     std::vector<std::string> versions) override;
    Task<StatusOr<std::string>> ResourceSingularizer(Context ctx, std::string resource) override;

    // A known kind's mapping from the cache, without discovery; nullopt on a miss. A hit counts
    // as one in ctrl_restmapper_lookups_total{result="hit"}; a miss counts nothing (the caller
    // goes on to RESTMapping, which counts it).
    std::optional<discovery::RESTMapping> CachedMapping(const GroupVersionKind& gvk) const override;

    // Forget a group version (the client calls this when the server answers 404 for one of its
    // resource paths): its next lookup rediscovers it.
    void Invalidate(const GroupVersion& gv) override;
    // Forget a whole group, or everything.
    void InvalidateGroup(const std::string& group);
    void Reset();

  private:
    using Snapshot = internal::MappingSnapshot;
    using Finder = std::function<std::vector<discovery::RESTMapping>(const Snapshot&)>;
    enum class ServerMode { kUnknown, kAggregated, kLegacy };
    // Which aggregated documents a round fetches: both, GET /api only, GET /apis only.
    enum class RootDocuments { kBoth, kCore, kNamed };

    // The snapshot to read now; valid until this thread calls Current() again.
    const Snapshot& Current() const;
    // Applies change to a copy of the current snapshot and publishes it, under the writer lock.
    void Update(const std::function<void(Snapshot&)>& change);

    // Looks up with find; on a miss refreshes group (versions as asked) and looks again.
    // want_all: the lookup wants every version (RESTMappings), not just the first found.
    Task<StatusOr<std::vector<discovery::RESTMapping>>> Lookup(Context ctx, const std::string& group,
                                                               const std::vector<std::string>& versions,
                                                               const Finder& lookup, bool want_all);
    // One (shared, rate-limited) round of discovery for what a lookup of group needs.
    Task<Status> Refresh(Context ctx, const std::string& group, const std::vector<std::string>& versions,
                         const Finder& find, bool want_all);
    // Fetches documents and replaces the groups they list (every group for kBoth, else one side);
    // falls back to LegacyRound when the server answered without aggregated discovery.
    Task<Status> AggregatedRound(Context ctx, RootDocuments documents, const std::string& group,
                                 const std::vector<std::string>& versions, const Finder& find, bool want_all);
    Task<StatusOr<RootDiscovery>> FetchRootDocuments(Context ctx, RootDocuments documents);
    // What a lookup of group needs without aggregated discovery: the versions named, or the group's
    // version list (an earlier round's when it names the group) and its versions.
    Task<Status> LegacyRound(Context ctx, const std::string& group, const std::vector<std::string>& versions,
                             const Finder& find, bool want_all, bool have_group_list);
    // Fetches the targets never fetched, one at a time until find answers (every one when
    // want_all), then the ones fetched by an earlier round if it still does not; skips and
    // extends fetched_now (this round's).
    Task<Status> FetchNewThenKnown(Context ctx, const std::string& group, const std::vector<std::string>& targets,
                                   const Finder& find, bool want_all, std::set<GroupVersion>& fetched_now);
    // Replaces the groups of one side (core, or named) with a legacy group list and drops the
    // versions it no longer names.
    void ApplyGroupList(const std::vector<APIGroup>& list, bool core);
    // Fetches gvs and applies the results; a 404 drops the group version.
    Task<Status> FetchVersions(Context ctx, const std::vector<GroupVersion>& gvs);
    bool TakeRoundToken(const std::string& key);

    std::shared_ptr<DiscoveryClient> discovery_;
    const LazyRESTMapperOptions options_;
    const uint64_t id_;

    ctrl::internal::LockedSlot<std::shared_ptr<const Snapshot>> snapshot_;
    std::atomic<uint64_t> generation_{1};
    std::mutex write_mu_;

    std::atomic<ServerMode> mode_;
    internal::SingleFlight<Status> rounds_;
    std::mutex limiters_mu_;
    std::map<std::string, std::unique_ptr<rest::RateLimiter>> limiters_;

    metrics::CounterFamily lookups_;
    metrics::Counter hit_;
    metrics::Counter miss_resolved_;
    metrics::Counter no_match_;
    metrics::Counter error_;
};

}  // namespace ctrl::discovery
