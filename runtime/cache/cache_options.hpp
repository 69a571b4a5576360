#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ctrl/cache/reflector.hpp"
#include "ctrl/cache/transform.hpp"
#include "ctrl/core/field_selector.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/label_selector.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::cache {

// What the cache holds of one kind, where it differs from the defaults (controller-runtime's
// cache.ByObject). Unset fields take CacheOptions' defaults.
struct ByObject {
    // Only these namespaces (one informer each). Empty vector: every namespace.
    std::optional<std::vector<std::string>> namespaces{};
    std::optional<LabelSelector> label_selector{};
    std::optional<FieldSelector> field_selector{};
    std::optional<TransformFunc> transform{};
    // A bounded cache of this kind: past this many bytes of compact forms (per informer), the
    // objects least recently stored or read are evicted (StoreOptions::max_bytes,
    // ctrl_informer_evictions_total). A Get of an evicted object (of any missing one, once some
    // were evicted) is one GET to the server, a List one LIST (ctrl_cache_evicted_reads_total);
    // the synchronous reads (GetSharedNow, ListSharedNow) answer Unavailable instead. Event
    // handlers still get every change; an update of an evicted object arrives as an add, and a
    // handler added after evictions is replayed only what is held. Default: unbounded.
    std::optional<std::size_t> max_bytes{};
};

// How a Cache lists and holds objects. Every field says its default.
struct CacheOptions {
    // Namespaces cached for namespaced kinds (one informer per namespace). Default: every namespace.
    // Cache::AddNamespace and RemoveNamespace change them at run time.
    std::vector<std::string> default_namespaces{};
    // Cache the namespaces this selects (by their labels), followed at run time: a namespace
    // labelled to match is added (its objects listed and watched, the others untouched), one
    // unlabelled or deleted is removed (its informers stopped, their objects freed). Added to
    // default_namespaces. Namespaced kinds with ByObject namespaces keep theirs. Default: none.
    std::optional<LabelSelector> namespace_selector{};
    // Only objects these select are listed and watched (the server filters). Default: everything.
    LabelSelector default_label_selector{};
    FieldSelector default_field_selector{};
    // Applied to every object on ingest. Default: StripManagedFields. Null: keep objects whole.
    TransformFunc default_transform = StripManagedFields;
    // Per-kind settings.
    std::map<GroupVersionKind, ByObject> by_object{};
    // A read of a kind with no informer fails (NotFound naming the kind) instead of starting one
    // (controller-runtime's ReaderFailOnMissingInformer). Default: false.
    bool reader_fail_on_missing_informer = false;
    ReflectorOptions reflector{};
    // Watch built-in kinds in protobuf, as controller-runtime does (ListWatchTarget::protobuf): the
    // API server encodes it several times faster than JSON, and each event is transcoded into the
    // exact JSON the server would have sent, so cached objects are the same either way. Custom
    // resources are JSON. An event the transcoder cannot read switches that informer to JSON for
    // good (logged; ReflectorStats::protobuf_fallbacks). Default true.
    bool protobuf = true;
    // Per informer: shared reads' decoded views kept after their readers let go (StoreOptions::
    // hot_views). Default 256; 0 keeps none.
    std::size_t hot_views = 256;
    // Where the informers' metrics go (ctrl_informer_*). Default: metrics::DefaultRegistry().
    metrics::Registry* registry = nullptr;
    // Read-your-own-writes: a cached read of an object (or a list of a namespace) this process
    // wrote through a client that tells the cache (Cache::ObserveWrite; a cluster's and a
    // manager's clients do) waits until the informer has seen that write, for at most this long;
    // then it answers with what the cache holds (counted, logged at V(1)). Reads of other kinds,
    // keys and namespaces never wait. Default: 3 s; 0 turns it off.
    std::chrono::milliseconds read_your_writes_timeout{std::chrono::seconds(3)};
};

}  // namespace ctrl::cache
