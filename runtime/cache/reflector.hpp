#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/cache/internal/version_waiters.hpp"
#include "ctrl/cache/list_watch_target.hpp"
#include "ctrl/cache/store.hpp"
#include "ctrl/cache/written_version.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "ctrl/rest/watch_stream.hpp"

namespace ctrl::cache {

namespace internal {
class InformerFaults;
class Processor;
class ReflectorMetrics;
}  // namespace internal

// How a Reflector lists and watches. Every field says its default.
struct ReflectorOptions {
    // Whether a list streams as a watch-list (client-go's WatchListClient, on by default there too):
    // one watch with sendInitialEvents=true that the API server answers from its watch cache, every
    // object an ADDED event, then a bookmark marking the end of the initial events, after which
    // the same watch goes on. When the server refuses it or the stream fails before that
    // bookmark, that list is made in pages instead (and a refused watch-list is not asked for
    // again). Default true; false: always list in pages.
    bool watch_list = true;
    // Items per list page (limit=, then continue=). Default 500, as client-go's pager.
    int64_t page_size = 500;
    // A watch asks the server to end it after a random time in [min_watch_timeout, 2 x
    // min_watch_timeout), then is renewed from where it was. Default 5 minutes (client-go's).
    std::chrono::seconds min_watch_timeout{std::chrono::minutes(5)};
    // A watch the server has not ended this long after its timeoutSeconds is ended at its next event
    // and renewed (a silent one ends at the transport's idle timeout). Default 30 s.
    std::chrono::seconds watch_overrun{30};
    // Waits after a failed list or watch: initial, doubling up to max, with 0-100% jitter; reset
    // by a successful list or a watch event. Default 800 ms to 30 s (client-go's).
    std::chrono::milliseconds initial_backoff{800};
    std::chrono::milliseconds max_backoff{std::chrono::seconds(30)};
    // Per list page, and for a watch until its response headers arrive. Default 60 s.
    std::chrono::milliseconds request_timeout{std::chrono::seconds(60)};
    // Every resync_period the Informer calls Resync: handlers get OnUpdate(object, object) for every
    // object held, so a controller re-reconciles everything (controller-runtime's SyncPeriod).
    // Default 0: never.
    std::chrono::milliseconds resync_period{0};
    // A list or watch answered 404 Not Found means the server no longer serves the resource (its
    // CRD was deleted, its API service removed): the reflector then stops (Run returns, StopReason
    // says why) instead of retrying a path that is gone. The cache retires such an informer and
    // its sources wait for the kind again. Default true; false: retry with backoff, as any failure.
    bool stop_when_not_served = true;
};

// Counters of what a Reflector did, for tests and metrics.
struct ReflectorStats {
    int64_t lists = 0;                 // complete lists, paged or streamed (each ends in a Store::Replace)
    int64_t list_pages = 0;            // list requests answered
    int64_t watch_lists = 0;           // of the complete lists, those streamed as a watch-list
    int64_t watch_list_fallbacks = 0;  // watch-lists refused or failed, then listed in pages
    int64_t protobuf_watches = 0;      // watches the server answered in protobuf
    int64_t protobuf_fallbacks = 0;    // protobuf events that could not be read (then JSON for good)
    int64_t watches = 0;               // watch requests opened
    int64_t events = 0;                // ADDED, MODIFIED and DELETED events applied
    int64_t bookmarks = 0;
    int64_t failures = 0;   // failed list or watch attempts
    int64_t expired = 0;    // of which 410 Gone / Expired (each followed by a relist)
    int64_t not_found = 0;  // of which 404 Not Found (the resource is not served)
    // Objects outside the target's shard that the server sent anyway (it ignored shardSelector) and
    // the reflector left out.
    int64_t outside_shard = 0;
};

// Keeps a Store equal to the server's set of objects of one resource and tells the informer's
// event handlers what changed (client-go's reflector; kube-rs's watcher state machine). It lists,
// as a watch-list stream or in pages (limit, continue; see ReflectorOptions::watch_list), replaces
// the store with the result in one step, then watches from the list's resourceVersion with
// bookmarks; each event updates the store. A watch the server ends (its timeoutSeconds) or that
// drops is renewed from the last resourceVersion seen (bookmarks advance it) without a relist; a
// 410 Gone / Expired (too old a resourceVersion, or an expired continue token mid-list) relists,
// and the objects that vanished meanwhile are deleted with final_state_unknown. Failed attempts
// are retried forever with backoff; the last failure is kept (LastError) so a sync wait can say
// why it waits. An object the store refuses (its transform failed) is left out of the cache,
// logged and counted (ctrl_informer_transform_errors_total): a listed one is skipped, and for a
// watched one the state held before is deleted (handlers get OnDelete with final_state_unknown),
// so the cache never holds a state older than the server's without saying so.
//
// Each change of the store is made inside a batch of the informer's internal::Processor, which
// owns the handlers and hands them the change once the store has it (see there).
//
// Run is one coroutine on the caller's executor (no thread of its own) until its Context ends.
// The other methods are thread-safe.
class Reflector final {
  public:
    // processor: where the store's changes go (the informer's handlers). kind names the objects in
    // log lines and metrics (the informer's GroupVersionKind); faults are counted in registry.
    Reflector(rest::RestClient& client, ListWatchTarget target, Store& store, internal::Processor& processor,
              ReflectorOptions options, const std::string& kind, metrics::Registry& registry);
    // kind: the target's resource; registry: metrics::DefaultRegistry().
    Reflector(rest::RestClient& client, ListWatchTarget target, Store& store, internal::Processor& processor,
              ReflectorOptions options = {});
    ~Reflector();
    Reflector(const Reflector&) = delete;
    Reflector& operator=(const Reflector&) = delete;

    // Lists, watches, renews and relists until ctx is cancelled, or until the server stops serving
    // the resource (ReflectorOptions::stop_when_not_served); then returns. Call once.
    Task<void> Run(Context ctx);
    // Why Run returned on its own: NotFound naming the resource once the server stopped serving it;
    // OK while it runs, and when it returned because its context ended.
    Status StopReason() const;

    // Whether the first list is in the store and its events were handed to the handlers.
    bool HasSynced() const { return synced_.load(std::memory_order_acquire); }
    // Waits until HasSynced. When ctx ends first: Timeout (or the context's error) naming the
    // resource and the last failure ("pods.v1 did not sync: Forbidden: ..."); when Run stopped
    // first because the resource is not served, that NotFound (StopReason) at once.
    Task<Status> WaitForSync(Context ctx) const;
    // The error of the last failed list or watch attempt; OK since the last successful list.
    Status LastError() const;
    // The resourceVersion the next watch starts from ("" before the first list).
    std::string LastResourceVersion() const;
    ReflectorStats Stats() const;
    const ListWatchTarget& Target() const { return target_; }
    // Empties the store (its informer is gone): the objects freed, the gauges 0, no events to the
    // handlers; reads waiting for a write answer at once. Call after Run has returned.
    void Clear();

    // Read-your-own-writes (internal::VersionWaiters): the highest resourceVersion the store has
    // applied (0 before any, or when they do not compare), whether the store reflects a write of
    // namespace_name/name, and a wait until it does (OK; ctx's error when ctx ends first).
    uint64_t ObservedVersion() const { return versions_.Observed(); }
    bool Reflects(const WrittenVersion& written, std::string_view namespace_name, std::string_view name) const {
        return versions_.Reflects(written, namespace_name, name);
    }
    Task<Status> WaitUntilReflects(Context ctx, WrittenVersion written, std::string namespace_name,
                                   std::string name) const {
        return versions_.Wait(std::move(ctx), std::move(written), std::move(namespace_name), std::move(name));
    }

  private:
    // The state machine: list pages until the last (kListing), or read a watch-list's initial
    // events until its end bookmark (kStreaming), then watch; each Step performs one request or
    // reads one event.
    enum class Phase { kListing, kStreaming, kWatching };
    struct State;

    Task<Status> Step(Context& ctx, State& state);
    Task<Status> ListPage(Context& ctx, State& state);
    // reflector_watch_list.cpp: opens the watch-list stream; takes its initial events.
    Task<Status> OpenWatchList(Context& ctx, State& state);
    Status ApplyInitialEvent(State& state, rest::WatchEvent event);
    // After a failed watch-list: lists in pages at once (for good when the server refused
    // watch-lists).
    void FallBackToPages(State& state, const Status& status);
    Task<Status> OpenWatch(Context& ctx, State& state);
    // Sends a watch or watch-list request and makes its stream the state's; the error unannotated.
    Task<Status> StartStream(Context& ctx, State& state, rest::HttpRequest request, int64_t timeout_seconds);
    Task<Status> ReadEvent(Context& ctx, State& state);
    Status ApplyList(State& state);
    Status ApplyEvent(State& state, rest::WatchEvent event);
    // The store's side of a watch event (under a batch of the processor); the transform's verdict.
    Status ApplyDeleted(Object object);
    Status ApplyAddedOrModified(Object object);
    void SetResourceVersion(std::string resource_version);
    void Fail(Status status);
    // Records that the server does not serve the resource (a 404) and wakes sync waiters.
    void StopNotServed(State& state, const Status& status);
    int64_t WatchTimeoutSeconds();
    // How a watch's stream is decoded for this reflector's store.
    rest::WatchStreamOptions StreamOptions() const;
    // What a watch asks for: the target, without protobuf once a protobuf event could not be read.
    const ListWatchTarget& WatchTarget(const State& state) const;
    void WatchInJson(State& state, const Status& status);
    // reflector_shard.cpp: whether an object the server sent is in the target's shard; one that
    // is not is counted and left out, and the first one is logged.
    bool InShard(const Object& object, State& state);
    // A target whose shard selects nothing: an empty store, synced, and no request until ctx ends.
    Task<Status> HoldNothing(Context& ctx, State& state);
    void CountProtobuf(const rest::WatchStream& stream);

    rest::RestClient& client_;
    const ListWatchTarget target_;
    Store& store_;
    const ReflectorOptions options_;

    const std::shared_ptr<const internal::InformerFaults> faults_;
    const std::shared_ptr<const internal::ReflectorMetrics> metrics_;

    internal::Processor& processor_;
    mutable internal::VersionWaiters versions_;  // advanced with resource_version_
    std::atomic<bool> synced_{false};
    Notification synced_event_;

    mutable std::mutex mu_;
    Status last_error_;
    Status stop_reason_;
    std::string resource_version_;
    ReflectorStats stats_;
};

}  // namespace ctrl::cache
