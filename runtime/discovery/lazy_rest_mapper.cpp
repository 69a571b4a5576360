#include "ctrl/discovery/lazy_rest_mapper.hpp"

#include <algorithm>

#include "ctrl/log/log.hpp"

namespace ctrl::discovery {
namespace {

using Snapshot = internal::MappingSnapshot;

std::atomic<uint64_t> next_mapper_id{1};

// Round keys with aggregated discovery: one per set of documents a round fetches. A miss shares
// (and is rate limited with) the rounds that fetch the document it needs.
constexpr char kAggregatedKey[] = "*";  // GET /api + GET /apis: the first round, a singular name
constexpr char kCoreDocumentKey[] = "GET /api";
constexpr char kNamedDocumentKey[] = "GET /apis";

const log::Logger& Log() {
    static const log::Logger logger = log::Logger().WithName("discovery");
    return logger;
}

// "v1,v2" ("" for every version), for log lines.
std::string Joined(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : ",") + item;
    return out;
}

std::string Joined(const std::vector<GroupVersion>& gvs) {
    std::string out;
    for (const GroupVersion& gv : gvs)
        out += (out.empty() ? "" : ",") + gv.String();
    return out;
}

std::vector<std::string> VersionsOf(const GroupVersionResource& resource) {
    if (resource.version.empty())
        return {};
    return {resource.version};
}

}  // namespace

LazyRESTMapper::LazyRESTMapper(std::shared_ptr<DiscoveryClient> discovery, LazyRESTMapperOptions options,
                               metrics::Registry& registry)
    : discovery_(std::move(discovery)),
      options_(options),
      id_(next_mapper_id.fetch_add(1)),
      snapshot_(std::make_shared<const Snapshot>()),
      mode_(ServerMode::kUnknown),
      lookups_(registry.AddCounter("ctrl_restmapper_lookups_total",
                                   "RESTMapper lookups by result: hit (cached), miss_resolved (found by discovery), "
                                   "no_match, error.",
                                   {"result"})),
      hit_(lookups_.WithLabelValues({"hit"})),
      miss_resolved_(lookups_.WithLabelValues({"miss_resolved"})),
      no_match_(lookups_.WithLabelValues({"no_match"})),
      error_(lookups_.WithLabelValues({"error"})) {}

const Snapshot& LazyRESTMapper::Current() const {
    // Each thread keeps the snapshot it last used and reloads it only when a reload published a
    // new one, so hits touch no shared cache line but the generation counter.
    struct Cached {
        uint64_t owner = 0;
        uint64_t generation = 0;
        std::shared_ptr<const Snapshot> snapshot;
    };
    thread_local Cached cached;
    const uint64_t generation = generation_.load(std::memory_order_acquire);
    if (cached.owner != id_ || cached.generation != generation) {
        cached.snapshot = snapshot_.Load();
        cached.owner = id_;
        cached.generation = generation;
    }
    return *cached.snapshot;
}

void LazyRESTMapper::Update(const std::function<void(Snapshot&)>& change) {
    std::lock_guard lock(write_mu_);
    std::shared_ptr<Snapshot> next = Snapshot::CopyOf(*snapshot_.Load());
    change(*next);
    next->Index();
    snapshot_.Store(std::move(next));
    generation_.fetch_add(1, std::memory_order_acq_rel);
}

bool LazyRESTMapper::TakeRoundToken(const std::string& key) {
    std::lock_guard lock(limiters_mu_);
    auto& limiter = limiters_[key];
    if (!limiter) {
        limiter = std::make_unique<rest::RateLimiter>(options_.rediscovery_per_second, options_.rediscovery_burst);
    }
    return limiter->TryAccept();
}

Task<StatusOr<std::vector<discovery::RESTMapping>>> LazyRESTMapper::Lookup(Context ctx, const std::string& group,
                                                                           const std::vector<std::string>& versions,
                                                                           const Finder& lookup, bool want_all) {
    // A lookup that wants every version is answered only once every version was fetched.
    const Finder find = [&](const Snapshot& s) {
        std::vector<discovery::RESTMapping> found = lookup(s);
        if (want_all && versions.empty() && !s.AllVersionsLoaded(group))
            found.clear();
        return found;
    };
    std::vector<discovery::RESTMapping> found = find(Current());
    if (!found.empty()) {
        hit_.Inc();
        co_return found;
    }
    Status refreshed = co_await Refresh(ctx, group, versions, find, want_all);
    if (!refreshed.Ok()) {
        error_.Inc();
        // Not NoMatch: the kind may well be served; the caller sees why discovery failed.
        Log().V(1).Info("discovery failed: the lookup fails with its error", "group", group, "versions",
                        Joined(versions), "err", refreshed);
        co_return refreshed;
    }
    found = find(Current());
    (found.empty() ? no_match_ : miss_resolved_).Inc();
    if (found.empty())
        Log().V(2).Info("not served after discovery: no match", "group", group, "versions", Joined(versions));
    co_return found;
}

Task<Status> LazyRESTMapper::Refresh(Context ctx, const std::string& group, const std::vector<std::string>& versions,
                                     const Finder& find, bool want_all) {
    for (int round = 0; round < 2; ++round) {
        const ServerMode mode = mode_.load();
        const bool aggregated = discovery_->Options().aggregated && mode != ServerMode::kLegacy;
        // Until the server is known to serve aggregated discovery, a round fetches both documents
        // (their answers tell); then only the one that lists group.
        RootDocuments documents = RootDocuments::kBoth;
        if (mode == ServerMode::kAggregated)
            documents = group.empty() ? RootDocuments::kCore : RootDocuments::kNamed;
        std::string key = "group/" + group;
        if (aggregated) {
            key = documents == RootDocuments::kBoth   ? kAggregatedKey
                  : documents == RootDocuments::kCore ? kCoreDocumentKey
                                                      : kNamedDocumentKey;
        }
        // Named, not built inside the co_await: GCC 12 destroys such temporaries twice.
        std::function<Task<Status>()> round_fn = [&]() -> Task<Status> {
            // Past the limit the lookup is answered from the last round.
            if (!TakeRoundToken(key)) {
                Log().V(4).Info("discovery round skipped: rate limited", "group", group, "round", key);
                co_return OkStatus();
            }
            Log().V(2).Info("discovery round", "group", group, "versions", Joined(versions), "aggregated", aggregated,
                            "round", key, "reason",
                            round == 0 ? "a lookup missed the cache" : "the shared round did not answer");
            if (aggregated)
                co_return co_await AggregatedRound(ctx, documents, group, versions, find, want_all);
            co_return co_await LegacyRound(ctx, group, versions, find, want_all, false);
        };
        auto outcome = co_await rounds_.Do(ctx, key, std::move(round_fn));
        const bool leader_gave_up = IsCancelled(outcome.value) || IsTimeout(outcome.value);
        if (outcome.shared && leader_gave_up && ctx.Err().Ok())
            continue;  // our context is still live
        if (!outcome.value.Ok())
            co_return outcome.value;
        // A shared round may have started before this lookup; if it did not find what this
        // lookup needs, run one of our own (rate limited like any other).
        if (!outcome.shared || !find(Current()).empty())
            co_return OkStatus();
    }
    co_return OkStatus();
}

Task<StatusOr<RootDiscovery>> LazyRESTMapper::FetchRootDocuments(Context ctx, RootDocuments documents) {
    if (documents == RootDocuments::kBoth)
        co_return co_await discovery_->FetchRoot(std::move(ctx));
    co_return co_await discovery_->FetchRootSide(std::move(ctx), documents == RootDocuments::kCore);
}

Task<Status> LazyRESTMapper::AggregatedRound(Context ctx, RootDocuments documents, const std::string& group,
                                             const std::vector<std::string>& versions, const Finder& find,
                                             bool want_all) {
    StatusOr<RootDiscovery> root = co_await FetchRootDocuments(ctx, documents);
    if (!root.Ok())
        co_return root.GetStatus();
    const bool core_fetched = documents != RootDocuments::kNamed;
    const bool named_fetched = documents != RootDocuments::kCore;
    if (!root->aggregated) {
        // The server has no aggregated discovery: what came back are the legacy group lists.
        if (mode_.load() != ServerMode::kLegacy)
            Log().V(1).Info("the server has no aggregated discovery: using the per-group documents");
        mode_.store(ServerMode::kLegacy);
        if (core_fetched)
            ApplyGroupList(root->groups, /*core=*/true);
        if (named_fetched)
            ApplyGroupList(root->groups, /*core=*/false);
        co_return co_await LegacyRound(ctx, group, versions, find, want_all, /*have_group_list=*/true);
    }
    mode_.store(ServerMode::kAggregated);
    // Whether this round's documents list group name (the other side is kept as it is).
    auto fetched_side = [&](const std::string& name) { return name.empty() ? core_fetched : named_fetched; };
    std::vector<GroupVersion> stale_of_group;
    const auto now = Snapshot::Clock::now();
    Update([&](Snapshot& s) {
        std::map<GroupVersion, Snapshot::Version> versions_now;
        for (auto& [gv, version] : s.versions) {
            if (!fetched_side(gv.group))
                versions_now.emplace(gv, std::move(version));
        }
        for (GroupVersionResources& gv : root->versions) {
            if (gv.freshness == Freshness::kStale) {
                // A stale version is not trusted: keep what we had, or fetch it directly below.
                if (auto old = s.versions.find(gv.group_version); old != s.versions.end()) {
                    versions_now.emplace(old->first, old->second);
                } else if (gv.group_version.group == group) {
                    stale_of_group.push_back(gv.group_version);
                }
                continue;
            }
            GroupVersion key = gv.group_version;  // copied before gv is moved from
            versions_now.emplace(std::move(key), Snapshot::Version{std::move(gv), now});
        }
        s.versions = std::move(versions_now);
        std::erase_if(s.groups, [&](const auto& entry) { return fetched_side(entry.first); });
        for (const APIGroup& g : root->groups)
            s.groups[g.name] = Snapshot::Group{g.versions, now};
        s.core_list_known = s.core_list_known || core_fetched;
        s.named_list_known = s.named_list_known || named_fetched;
    });
    if (!stale_of_group.empty()) {
        Log().V(2).Info("aggregated discovery marks group versions stale: fetching them directly", "groupVersions",
                        Joined(stale_of_group));
        co_return co_await FetchVersions(ctx, stale_of_group);
    }
    co_return OkStatus();
}

void LazyRESTMapper::ApplyGroupList(const std::vector<APIGroup>& list, bool core) {
    const auto now = Snapshot::Clock::now();
    Update([&](Snapshot& s) {
        auto on_side = [core](const std::string& name) { return name.empty() == core; };
        std::erase_if(s.groups, [&](const auto& entry) { return on_side(entry.first); });
        for (const APIGroup& g : list) {
            if (on_side(g.name))
                s.groups[g.name] = Snapshot::Group{g.versions, now};
        }
        // Versions the list no longer names are gone (a deleted CRD, a version no longer served).
        std::erase_if(s.versions, [&](const auto& entry) {
            const GroupVersion& gv = entry.first;
            if (!on_side(gv.group))
                return false;
            auto group = s.groups.find(gv.group);
            if (group == s.groups.end())
                return true;
            const auto& listed = group->second.versions;
            return std::find(listed.begin(), listed.end(), gv.version) == listed.end();
        });
        (core ? s.core_list_known : s.named_list_known) = true;
    });
}

Task<Status> LazyRESTMapper::LegacyRound(Context ctx, const std::string& group,
                                         const std::vector<std::string>& versions, const Finder& find, bool want_all,
                                         bool have_group_list) {
    std::set<GroupVersion> fetched_now;
    if (!versions.empty())
        co_return co_await FetchNewThenKnown(ctx, group, versions, find, want_all, fetched_now);
    // No version named: the group's version list is needed. A list an earlier round fetched
    // (GET /apis names every named group, GET /api the core versions) serves every group it
    // names, so lookups in N groups cost 1 + N requests rather than 2N: first the versions it
    // names that were never fetched. Only when they do not answer is the list fetched again (a
    // group or version added since), then the versions it newly names, then the fetched ones
    // again (a kind added to a cached version).
    if (!have_group_list && Current().HasVersionList(group)) {
        for (const std::string& version : Current().VersionsOf(group)) {
            const GroupVersion gv{group, version};
            if (Current().versions.count(gv) != 0)
                continue;
            const std::vector<GroupVersion> one{gv};  // named: see FetchNewThenKnown
            CTRL_CO_RETURN_IF_ERROR(co_await FetchVersions(ctx, one));
            fetched_now.insert(gv);
            if (!want_all && !find(Current()).empty())
                co_return OkStatus();
        }
    }
    if (!have_group_list) {
        const bool core = group.empty();
        StatusOr<std::vector<APIGroup>> list = co_await discovery_->FetchGroupList(ctx, core);
        if (!list.Ok())
            co_return list.GetStatus();
        ApplyGroupList(*list, core);
    }
    const std::vector<std::string> listed = Current().VersionsOf(group);
    co_return co_await FetchNewThenKnown(ctx, group, listed, find, want_all, fetched_now);
}

Task<Status> LazyRESTMapper::FetchNewThenKnown(Context ctx, const std::string& group,
                                               const std::vector<std::string>& targets, const Finder& find,
                                               bool want_all, std::set<GroupVersion>& fetched_now) {
    // Versions not fetched yet, preferred first, one at a time until the lookup is answered;
    // then, if it still is not, the fetched ones again (a kind added to a cached version), but
    // none this round fetched already.
    std::vector<GroupVersion> fetched_before;
    for (const std::string& version : targets) {
        const GroupVersion gv{group, version};
        if (fetched_now.count(gv) != 0)
            continue;
        if (Current().versions.count(gv) != 0) {
            fetched_before.push_back(gv);
            continue;
        }
        // (a named vector: GCC 12 miscompiles a braced list held across co_await)
        const std::vector<GroupVersion> one{gv};
        CTRL_CO_RETURN_IF_ERROR(co_await FetchVersions(ctx, one));
        fetched_now.insert(gv);
        if (!want_all && !find(Current()).empty())
            co_return OkStatus();
    }
    if (!fetched_before.empty() && (want_all || find(Current()).empty())) {
        CTRL_CO_RETURN_IF_ERROR(co_await FetchVersions(ctx, fetched_before));
    }
    co_return OkStatus();
}

Task<Status> LazyRESTMapper::FetchVersions(Context ctx, const std::vector<GroupVersion>& gvs) {
    for (const GroupVersion& gv : gvs) {
        StatusOr<GroupVersionResources> fetched = co_await discovery_->FetchGroupVersion(ctx, gv);
        if (!fetched.Ok() && !IsNotFound(fetched.GetStatus()))
            co_return fetched.GetStatus();
        const auto now = Snapshot::Clock::now();
        Update([&](Snapshot& s) {
            if (fetched.Ok()) {
                s.versions[gv] = Snapshot::Version{std::move(fetched).Value(), now};
                return;
            }
            // 404: the group version is not served (any more).
            Log().V(2).Info("group version not served: forgotten", "groupVersion", gv);
            s.versions.erase(gv);
            if (auto group = s.groups.find(gv.group); group != s.groups.end()) {
                std::erase(group->second.versions, gv.version);
            }
        });
    }
    co_return OkStatus();
}

Task<StatusOr<std::vector<discovery::RESTMapping>>> LazyRESTMapper::RESTMappings(Context ctx, GroupKind kind,
                                                                                 std::vector<std::string> versions) {
    const Finder find = [&](const Snapshot& s) { return s.MappingsFor(kind, versions); };
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<discovery::RESTMapping> found,
                             co_await Lookup(ctx, kind.group, versions, find, /*want_all=*/true));
    if (found.empty())
        co_return NoKindMatch(kind, versions);
    co_return found;
}

Task<StatusOr<discovery::RESTMapping>> LazyRESTMapper::RESTMapping(Context ctx, GroupKind kind,
                                                                   std::vector<std::string> versions) {
    const Finder find = [&](const Snapshot& s) { return s.MappingsFor(kind, versions); };
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<discovery::RESTMapping> found,
                             co_await Lookup(ctx, kind.group, versions, find, /*want_all=*/false));
    if (found.empty())
        co_return NoKindMatch(kind, versions);
    co_return found.front();
}

Task<StatusOr<std::vector<GroupVersionKind>>> LazyRESTMapper::KindsFor(Context ctx, GroupVersionResource resource) {
    const Finder find = [&](const Snapshot& s) { return s.MappingsForResource(resource); };
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<discovery::RESTMapping> found,
                             co_await Lookup(ctx, resource.group, VersionsOf(resource), find, /*want_all=*/true));
    if (found.empty())
        co_return NoResourceMatch(resource);
    std::vector<GroupVersionKind> kinds;
    for (const discovery::RESTMapping& mapping : found)
        kinds.push_back(mapping.gvk);
    co_return kinds;
}

Task<StatusOr<GroupVersionKind>> LazyRESTMapper::KindFor(Context ctx, GroupVersionResource resource) {
    const Finder find = [&](const Snapshot& s) { return s.MappingsForResource(resource); };
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<discovery::RESTMapping> found,
                             co_await Lookup(ctx, resource.group, VersionsOf(resource), find, /*want_all=*/false));
    if (found.empty())
        co_return NoResourceMatch(resource);
    co_return found.front().gvk;
}

Task<StatusOr<std::vector<GroupVersionResource>>> LazyRESTMapper::ResourcesFor(Context ctx,
                                                                               GroupVersionResource input) {
    const Finder find = [&](const Snapshot& s) { return s.MappingsForResource(input); };
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<discovery::RESTMapping> found,
                             co_await Lookup(ctx, input.group, VersionsOf(input), find, /*want_all=*/true));
    if (found.empty())
        co_return NoResourceMatch(input);
    std::vector<GroupVersionResource> resources;
    for (const discovery::RESTMapping& mapping : found)
        resources.push_back(mapping.resource);
    co_return resources;
}

Task<StatusOr<GroupVersionResource>> LazyRESTMapper::ResourceFor(Context ctx, GroupVersionResource input) {
    const Finder find = [&](const Snapshot& s) { return s.MappingsForResource(input); };
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<discovery::RESTMapping> found,
                             co_await Lookup(ctx, input.group, VersionsOf(input), find, /*want_all=*/false));
    if (found.empty())
        co_return NoResourceMatch(input);
    co_return found.front().resource;
}

Task<StatusOr<std::string>> LazyRESTMapper::ResourceSingularizer(Context ctx, std::string resource) {
    if (auto singular = Current().Singular(resource))
        co_return *singular;
    // Only aggregated discovery can search every group in one round.
    if (discovery_->Options().aggregated && mode_.load() != ServerMode::kLegacy && TakeRoundToken(kAggregatedKey)) {
        const Finder none = [](const Snapshot&) { return std::vector<discovery::RESTMapping>{}; };
        const std::string any_group;
        const std::vector<std::string> any_version;
        Log().V(2).Info("discovery round", "aggregated", true, "reason", "a singular name is not known", "resource",
                        resource);
        CTRL_CO_RETURN_IF_ERROR(
            co_await AggregatedRound(ctx, RootDocuments::kBoth, any_group, any_version, none, false));
        if (auto singular = Current().Singular(resource))
            co_return *singular;
    }
    co_return NoMatchError("no resource \"" + resource + "\" is known to the RESTMapper; look up its kind first");
}

std::optional<discovery::RESTMapping> LazyRESTMapper::CachedMapping(const GroupVersionKind& gvk) const {
    std::vector<discovery::RESTMapping> found = Current().MappingsFor(gvk.ToGroupKind(), {gvk.version});
    if (found.empty())
        return std::nullopt;
    hit_.Inc();
    return found.front();
}

void LazyRESTMapper::Invalidate(const GroupVersion& gv) {
    Log().V(2).Info("invalidated: the next lookup rediscovers", "groupVersion", gv);
    Update([&](Snapshot& s) { s.versions.erase(gv); });
}

void LazyRESTMapper::InvalidateGroup(const std::string& group) {
    Log().V(2).Info("invalidated: the next lookup rediscovers", "group", group);
    Update([&](Snapshot& s) {
        s.groups.erase(group);
        std::erase_if(s.versions, [&](const auto& entry) { return entry.first.group == group; });
    });
}

void LazyRESTMapper::Reset() {
    Log().V(1).Info("reset: every mapping is discovered again");
    Update([](Snapshot& s) { s = Snapshot(); });
    mode_.store(ServerMode::kUnknown);
}

Status NoKindMatch(const GroupKind& kind, const std::vector<std::string>& versions) {
    std::string message = "no matches for kind \"" + kind.kind + "\" in ";
    if (versions.size() == 1) {
        message += "version \"" + GroupVersion{kind.group, versions.front()}.String() + "\"";
    } else {
        message += "group \"" + kind.group + "\"";
    }
    return NoMatchError(std::move(message));
}

Status NoResourceMatch(const GroupVersionResource& resource) {
    return NoMatchError("no matches for " + resource.String());
}

}  // namespace ctrl::discovery
