#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/cache/cache.hpp"
#include "ctrl/cache/index_func.hpp"
#include "ctrl/cache/informer.hpp"
#include "ctrl/cache/internal/written_versions.hpp"
#include "ctrl/discovery/rest_mapper.hpp"
#include "ctrl/metrics/metric.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::cache {

// A kind's informers at one moment: one per cached namespace ("" = every namespace). Immutable:
// a change of the cached namespaces makes a new Scope, and a read holds the one it started with,
// so the informers it reads stay alive until it is done.
struct Cache::Scope {
    std::vector<std::string> namespaces{};  // parallel to informers
    std::vector<std::shared_ptr<Informer>> informers{};

    // Whether informer i holds objects a read of namespace_name ("" = every namespace) wants.
    bool Serves(std::size_t i, std::string_view namespace_name) const {
        return namespaces[i].empty() || namespace_name.empty() || namespaces[i] == namespace_name;
    }
};

// One kind (in one form) in a Cache: its mapping and its current Scope. A retired entry
// (Cache::Retire) is kept, so a pointer to an Entry stays valid while the Cache lives.
struct Cache::Entry {
    discovery::RESTMapping mapping{};
    // Whether the scope follows the cache's namespaces (AddNamespace, RemoveNamespace, the
    // namespace selector): a namespaced kind without namespaces of its own (ByObject).
    bool follows_namespaces = false;
    std::shared_ptr<const Scope> scope;  // guarded by Cache::mu_ (ScopeOf)
    // Field indexes (IndexField), given to informers made later too; guarded by Cache::mu_.
    std::vector<std::pair<std::string, IndexFunc>> indexes{};
    // Writes of this process its informers may not reflect yet (read-your-own-writes).
    mutable internal::WrittenVersions written{};
    // Past this many pending writes, the next write forgets those the informers reflect; guarded
    // by Cache::mu_.
    std::size_t forget_reflected_at = 64;
};

// ctrl_cache_read_your_writes_*, by kind: reads that waited for a write of this process, how long,
// those the timeout ended, and synchronous reads that could not wait.
struct Cache::WriteWaitMetrics {
    explicit WriteWaitMetrics(metrics::Registry& registry);

    metrics::CounterFamily waits;
    metrics::HistogramFamily wait_seconds;
    metrics::CounterFamily timeouts;
    metrics::CounterFamily unwaited;
};

// The Cache as an informer's end sees it: null once the Cache is destroyed.
struct Cache::Owner {
    explicit Owner(Cache* owner) : cache(owner) {}

    // Cache::Retire, while the Cache lives.
    void Retire(const EntryKey& key, const Informer* informer, const Status& why) {
        std::lock_guard lock(mu);
        if (cache != nullptr)
            (void)cache->Retire(key, informer, why);
    }
    // Cache::AddNamespace or RemoveNamespace, while the Cache lives.
    void FollowNamespace(const std::string& namespace_name, bool cached) {
        std::lock_guard lock(mu);
        if (cache != nullptr)
            (void)(cached ? cache->AddNamespace(namespace_name) : cache->RemoveNamespace(namespace_name));
    }

    std::mutex mu;
    Cache* cache;
};

}  // namespace ctrl::cache
