#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/cache/cache_options.hpp"
#include "ctrl/cache/informer.hpp"
#include "ctrl/cache/informers.hpp"
#include "ctrl/cache/written_version.hpp"
#include "ctrl/client/reader.hpp"
#include "ctrl/client/write_observer.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/discovery/rest_mapper.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::cache {

// The informer cache (controller-runtime's cache.Cache): a client::Reader that answers from one
// informer per kind (per cached namespace), created on first use or up front, plus the informer
// handles controllers watch through. Typed and unstructured reads of a kind share one informer;
// metadata-only reads (PartialObjectMetadata) have their own, which lists and watches metadata
// only. A read waits for its informer's first sync. Reads return copies by default; GetShared and
// ListShared hand out shared const views (zero copy, docs/decisions.md, decision 20).
//
// Run (or Start) runs every informer made so far, and every later one at once, as Tasks on the
// executor given to the constructor, until Run's context ends. A kind's informers are retired
// (stopped, their stores emptied) by RemoveInformer, and by themselves when the server stops
// serving the kind (its CRD deleted): the mapper forgets the kind's group version, later reads
// and GetInformers ask the server again (NoMatch while it is gone, new informers once it is back),
// and sources that watched the retired informers wait for the kind again. Destroying the Cache cancels them
// (they finish on their own); a Run under way must have returned first. Thread-safe.
class Cache final : public client::Reader, public Informers, public client::WriteObserver {
  public:
    Cache(std::shared_ptr<rest::RestClient> rest, std::shared_ptr<discovery::RESTMapper> mapper,
          boost::asio::any_io_executor executor, CacheOptions options);
    ~Cache() override;

    // Runs every informer made so far, and every later one at once, until ctx ends; then returns
    // OK once every informer has returned. When an informer fails (Internal: a bug; informers
    // retry every failure of the server), the others are stopped and Run returns its error.
    // A second Run (or Run after Start) returns AlreadyExists at once.
    Task<Status> Run(Context ctx);
    // Run without awaiting it: starts the informers and returns (for callers that are not a Task).
    void Start(Context ctx);
    bool Started() const;
    // Waits until Run or Start has begun (a Run launched on another coroutine may not have yet): OK
    // then; ctx's error (Cancelled, or Timeout at its deadline) when ctx ends first.
    Task<Status> WaitForStarted(Context ctx) const;
    // Whether every started informer has returned after Run's context ended.
    bool Stopped() const;

    // The informers of gvk (one per cached namespace), made (and started, when the cache is) if
    // missing. NoMatch when the server serves no such kind.
    Task<StatusOr<std::vector<Informer*>>> GetInformers(Context ctx, GroupVersionKind gvk, bool metadata_only) override;
    // Waits until every informer made so far has synced. On failure (ctx ended first) the error
    // names each kind that did not sync and why (Forbidden, NoMatch, unreachable), one per line.
    Task<Status> WaitForCacheSync(Context ctx) override;
    // Adds a field index to gvk's informers (controller-runtime's IndexField): List with
    // MatchingFields{field: value} then finds objects whose extract() returns value. Call before
    // Start for a kind not yet read.
    Task<Status> IndexField(Context ctx, GroupVersionKind gvk, std::string field, FieldExtractor extract) override;
    // Stops gvk's informers (in that form) and frees what they hold (controller-runtime's
    // RemoveInformer): their handlers get nothing more, their sources wait for new informers, and
    // the next read or GetInformers makes new ones. NotFound when the kind has no informers.
    Status RemoveInformer(const GroupVersionKind& gvk, bool metadata_only) override;
    template <scheme::TypedObject T>
    Status RemoveInformerFor(bool metadata_only = false) {
        return RemoveInformer(scheme::GroupVersionKindOf<T>(), metadata_only);
    }
    // Cancels ctx when gvk's informers change (a cached namespace added or removed), once.
    void CancelOnInformersChanged(Context ctx, const GroupVersionKind& gvk, bool metadata_only) override;

    // cache_scope.cpp: the cached namespaces at run time. A cache made with namespaces
    // (CacheOptions::default_namespaces or namespace_selector) can add and remove them while it
    // runs: every namespaced kind that follows them (no ByObject namespaces of its own) gets an
    // informer for an added namespace, started at once, without relisting the others; a removed
    // namespace's informers stop and free what they held. Sources follow (see
    // source::KindSource). BadRequest for a cache of every namespace and for an empty name. With a namespace_selector,
    // the selector's namespaces are added and removed as they are labelled and unlabelled, and these calls change the
    // set as well.
    Status AddNamespace(const std::string& namespace_name);
    Status RemoveNamespace(const std::string& namespace_name);
    // The cached namespaces; empty for a cache of every namespace.
    std::vector<std::string> Namespaces() const;
    // Lists and watches gvk (in that form) with these selectors from now on (instead of
    // CacheOptions' and ByObject's), by restarting its informers alone: new ones list with the
    // selectors, the old ones stop and free what they held, other kinds are untouched, and
    // sources move to the new informers (whose first list they get as creates; objects that are
    // not selected any more leave the cache without a delete). Kept for informers made later.
    Status SetSelectors(const GroupVersionKind& gvk, bool metadata_only, LabelSelector labels, FieldSelector fields);
    // Holds only one shard of gvk (in that form) from now on: its informers restart as SetSelectors
    // restarts them, asking the server for the shard's objects (ListWatchTarget::shard). A
    // sharded controller sets its share each time it changes (sharding::Ring). Kept for informers
    // made later; a shard that selects everything ends the sharding.
    Status SetShard(const GroupVersionKind& gvk, bool metadata_only, sharding::ShardFilter shard) override;

    Task<Status> GetObject(Context ctx, ObjectKey key, Object& object, client::ObjectForm form,
                           client::GetOptions options) override;
    Task<Status> ListObjects(Context ctx, ObjectList& list, client::ObjectForm form,
                             client::ListOptions options) override;

    // The cached object itself, shared and read-only; NotFound as Get.
    Task<StatusOr<std::shared_ptr<const Object>>> GetShared(Context ctx, GroupVersionKind gvk, ObjectKey key);
    // The cached objects the option values select (as List's), shared and read-only.
    template <client::ListOption... Options>
    Task<StatusOr<std::vector<std::shared_ptr<const Object>>>> ListShared(Context ctx, GroupVersionKind gvk,
                                                                          const Options&... options) {
        client::ListOptions selected;
        (options.ApplyToList(selected), ...);
        return ListSharedSelected(std::move(ctx), std::move(gvk), std::move(selected));
    }
    Task<StatusOr<std::vector<std::shared_ptr<const Object>>>> ListSharedSelected(Context ctx, GroupVersionKind gvk,
                                                                                  client::ListOptions options);
    // The same for a typed kind: `co_await cache.GetShared<api::Pod>(ctx, {ns, name})`, read
    // through the kind's view (api::PodView).
    template <scheme::TypedObject T>
    Task<StatusOr<std::shared_ptr<const Object>>> GetShared(Context ctx, ObjectKey key) {
        return GetShared(std::move(ctx), scheme::GroupVersionKindOf<T>(), std::move(key));
    }
    template <scheme::TypedObject T, client::ListOption... Options>
    Task<StatusOr<std::vector<std::shared_ptr<const Object>>>> ListShared(Context ctx, const Options&... options) {
        return ListShared(std::move(ctx), scheme::GroupVersionKindOf<T>(), options...);
    }

    // Reads without a coroutine, for code that must not suspend (a handler's map function runs on
    // the informer's executor): answered from gvk's synced informers as GetShared / ListShared
    // would; Unavailable when the kind has no informer yet or it has not synced (read it once, or
    // GetInformers and WaitForCacheSync, first). Never makes an informer, never waits.
    StatusOr<std::shared_ptr<const Object>> GetSharedNow(const GroupVersionKind& gvk, const ObjectKey& key) const;
    StatusOr<std::vector<std::shared_ptr<const Object>>> ListSharedNow(const GroupVersionKind& gvk,
                                                                       const client::ListOptions& options) const;
    template <scheme::TypedObject T>
    StatusOr<std::shared_ptr<const Object>> GetSharedNow(const ObjectKey& key) const {
        return GetSharedNow(scheme::GroupVersionKindOf<T>(), key);
    }
    template <scheme::TypedObject T, client::ListOption... Options>
    StatusOr<std::vector<std::shared_ptr<const Object>>> ListSharedNow(const Options&... options) const {
        client::ListOptions selected;
        (options.ApplyToList(selected), ...);
        return ListSharedNow(scheme::GroupVersionKindOf<T>(), selected);
    }

    // Read-your-own-writes (CacheOptions::read_your_writes_timeout): records a write this process
    // made, so that cached reads of that object, and lists of its namespace, wait until the
    // informer has seen it. A write of a kind the cache has no informer for is not recorded (an
    // informer made later lists after it). The synchronous reads (GetSharedNow, ListSharedNow)
    // cannot wait: they answer what the cache holds and count it.
    void ObserveWrite(const client::ObservedWrite& write) override;

    // Where a bounded kind's reads of evicted objects go (ByObject::max_bytes): the server, through
    // this reader (cluster::Cluster sets its direct client). Without one such a read answers
    // Unavailable. Set before the cache is read from.
    void SetLiveReader(client::Reader* reader) { live_reader_ = reader; }

    // The informers of a typed kind (as GetInformers): `co_await cache.GetInformersFor<api::Pod>(ctx)`.
    template <scheme::TypedObject T>
    Task<StatusOr<std::vector<Informer*>>> GetInformersFor(Context ctx) {
        return GetInformers(std::move(ctx), scheme::GroupVersionKindOf<T>(), false);
    }

  private:
    struct Entry;
    struct Scope;
    struct Running;
    struct Owner;
    class NamespaceFollower;
    using EntryKey = std::pair<GroupVersionKind, bool>;  // kind, metadata only
    // The stores a read chose, synced, and the scope that keeps them alive while it reads.
    struct SyncedScope {
        std::shared_ptr<const Scope> scope;
        std::vector<const Store*> stores;
        std::vector<Informer*> informers;  // parallel to stores
    };
    // The read-your-own-writes metrics (cache_read_your_writes.cpp).
    struct WriteWaitMetrics;

    // The entry of gvk, made if missing (unless reads must not make one).
    Task<StatusOr<Entry*>> EntryFor(Context& ctx, const GroupVersionKind& gvk, bool metadata_only, bool for_read);
    // The entry's current scope.
    std::shared_ptr<const Scope> ScopeOf(const Entry& entry) const;
    // The informers of scope to read for namespace_name ("" = all); BadRequest naming the cached
    // namespaces when none (or, for a named read, more than one) fits.
    StatusOr<std::vector<Informer*>> ChooseInformers(const Entry& entry, const Scope& scope,
                                                     std::string_view namespace_name, bool named_read) const;
    // The synced informer entry of gvk for a read that must not wait (full objects first, else
    // metadata-only), and its scope; Unavailable when there is none or it has not synced.
    StatusOr<std::pair<const Entry*, std::shared_ptr<const Scope>>> SyncedEntryNow(const GroupVersionKind& gvk) const;
    // The stores to read for namespace_name ("" = all), after their informers synced.
    Task<StatusOr<SyncedScope>> SyncedStores(Context& ctx, Entry& entry, std::string_view namespace_name,
                                             bool named_read);
    // Find without suspending, when the kind's informers exist and have synced (the common case,
    // which then costs no coroutine frame beyond Find's); nullopt when Find must wait.
    std::optional<StatusOr<CachedObject>> FindNow(const GroupVersionKind& gvk, bool metadata_only,
                                                  const ObjectKey& key) const;
    // A named read's informers of entry in scope (the key checked; namespace_name set to the one
    // read).
    StatusOr<std::vector<Informer*>> NamedReadInformers(const Entry& entry, const Scope& scope, const ObjectKey& key,
                                                        std::string& namespace_name) const;
    // The object named in the stores of informers (synced); NotFound as the server says it.
    static StatusOr<CachedObject> GetNamed(const Entry& entry, const std::vector<Informer*>& informers,
                                           std::string_view namespace_name, std::string_view name);
    // The cached object key names (a copy or a view is the caller's choice); NotFound as the
    // server says it, Invalid for a key without a name or a namespace its kind needs.
    Task<StatusOr<CachedObject>> Find(Context& ctx, const GroupVersionKind& gvk, bool metadata_only,
                                      const ObjectKey& key);
    // The cached objects options select (namespace cleared for a cluster-scoped kind);
    // resource_version is the store's when one store answered.
    Task<StatusOr<std::vector<CachedObject>>> Select(Context& ctx, const GroupVersionKind& gvk, bool metadata_only,
                                                     client::ListOptions& options, std::string& resource_version);
    StoreOptions StoreOptionsFor(const GroupVersionKind& gvk) const;
    // A new informer of key's kind (in its form) for one namespace ("" = every namespace), with
    // the entry's field indexes, not run; call with mu_ held (it reads selectors_ and the indexes).
    std::shared_ptr<Informer> MakeInformer(const EntryKey& key, const Entry& entry,
                                           const std::string& namespace_name) const;
    // cache_scope.cpp: the namespaces a new entry of a following kind starts with.
    std::vector<std::string> FollowedNamespacesLocked() const;
    // Replaces key's scope with `scope` and takes the key's change listeners (to cancel once the
    // lock is released).
    // Replaces key's informers with new ones made from the current selectors and shard (started
    // when the cache runs); returns the old ones, to be stopped outside the lock.
    std::vector<std::shared_ptr<Informer>> RestartInformersLocked(const EntryKey& key, std::vector<Context>& listeners);
    void SetScopeLocked(const EntryKey& key, Entry& entry, std::shared_ptr<const Scope> scope,
                        std::vector<Context>& listeners);
    // cache_evicted_reads.cpp: whether a store of gvk that a read of namespace_name ("" = all)
    // would use has evicted objects (a bounded kind, ByObject::max_bytes).
    bool MayHaveEvicted(const GroupVersionKind& gvk, bool metadata_only, std::string_view namespace_name) const;
    // The server's answer for an evicted object (one GET; counted).
    Task<Status> GetEvicted(Context& ctx, const GroupVersionKind& gvk, const ObjectKey& key, Object& object,
                            client::ObjectForm form);
    // Unavailable for a synchronous read of a kind whose cache evicted objects.
    static Status EvictedNow(const GroupVersionKind& gvk);
    // The server's list for a kind whose cache evicted objects (one LIST; counted).
    Task<Status> ListEvicted(Context& ctx, const GroupVersionKind& gvk, ObjectList& list, client::ObjectForm form,
                             const client::ListOptions& options);
    // cache_read_your_writes.cpp: waits until the informers of a read reflect the writes of this
    // process it would see (name: one object's; null: every one in namespace_name, "" = all), at
    // most read_your_writes_timeout; then OK (the read answers what there is), or ctx's error.
    Task<Status> AwaitWrites(Context& ctx, const Entry& entry, const std::vector<Informer*>& informers,
                             std::string_view namespace_name, const std::string* name);
    // Whether the informers reflect every write a read would see (no wait needed); when not and
    // count_unwaited, counts a synchronous read that cannot wait.
    bool WritesReflectedNow(const Entry& entry, const std::vector<Informer*>& informers,
                            std::string_view namespace_name, const std::string* name, bool count_unwaited) const;
    // Records a write in entry (with mu_ held), forgetting what the informers reflect when many
    // are pending.
    void RecordWriteLocked(Entry& entry, const client::ObservedWrite& write, const WrittenVersion& written);

    // Waits until a namespace selector's first list is in (at once without a selector, or before
    // the cache runs).
    Task<Status> WaitForNamespaces(Context& ctx);
    // The informer of the namespaces CacheOptions::namespace_selector selects, which adds and
    // removes them (metadata only).
    std::shared_ptr<Informer> MakeNamespaceInformer();
    // Takes key's change listeners (to cancel once the lock is released).
    std::vector<Context> TakeListenersLocked(const EntryKey& key);
    // Marks the cache started and runs the informers made so far; the context they run under, or
    // nullopt when the cache was started already.
    std::optional<Context> Begin(const Context& ctx);
    void RunInformerLocked(const EntryKey& key, const std::shared_ptr<Informer>& informer);
    // cache_informer_removal.cpp: takes key's entry out of the cache if it still holds informer
    // (null: whatever it holds), stops its informers and, when why is NotFound (the kind is not
    // served), makes the mapper forget its group version. False when there was nothing to retire.
    bool Retire(const EntryKey& key, const Informer* informer, const Status& why);

    const std::shared_ptr<rest::RestClient> rest_;
    const std::shared_ptr<discovery::RESTMapper> mapper_;
    const boost::asio::any_io_executor executor_;
    const CacheOptions options_;

    mutable std::mutex mu_;
    std::map<EntryKey, std::unique_ptr<Entry>> entries_;
    // Cancelled when their key's scope changes (CancelOnInformersChanged).
    std::map<EntryKey, std::vector<Context>> scope_listeners_;
    // The cached namespaces; empty: every namespace (unless a namespace selector follows them).
    std::set<std::string> namespaces_;
    // Selectors set at run time (SetSelectors), by kind and form.
    std::map<EntryKey, std::pair<LabelSelector, FieldSelector>> selectors_;
    // Shards set at run time (SetShard), by kind and form.
    std::map<EntryKey, sharding::ShardFilter> shards_;
    // Follows CacheOptions::namespace_selector (null without one).
    std::shared_ptr<Informer> namespace_informer_;
    // Entries taken out by Retire: kept (their informers stopped and emptied) because a read under
    // way may still hold one.
    std::vector<std::unique_ptr<Entry>> retired_;
    std::optional<Context> started_ctx_;  // a child of Run's context, cancelled by the destructor
    Notification started_;                // notified once started_ctx_ is set
    const std::shared_ptr<Running> running_;
    client::Reader* live_reader_ = nullptr;  // SetLiveReader
    // ctrl_cache_evicted_reads_total{gvk, verb}: reads of evicted objects sent to the server.
    metrics::CounterFamily evicted_reads_;
    const std::unique_ptr<WriteWaitMetrics> write_waits_;
    // Lets an informer's end reach the Cache while it lives (cleared by the destructor).
    const std::shared_ptr<Owner> owner_;
};

}  // namespace ctrl::cache
