#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/cache/cached_object.hpp"
#include "ctrl/cache/index_func.hpp"
#include "ctrl/cache/transform.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/object_sink.hpp"

namespace ctrl::cache {

namespace internal {
class CompactBuilder;
class Indexer;
class StoredObject;
struct StoreContext;
}  // namespace internal

// The name under which ByIndex finds the objects of one namespace (client-go's NamespaceIndex).
inline constexpr std::string_view kNamespaceIndex = "namespace";

// How a Store ingests objects. Every field says its default.
struct StoreOptions {
    // Applied to every object before it is stored. Default: StripManagedFields. Null: none.
    TransformFunc transform = StripManagedFields;
    // Shared views (CachedObject::Shared) kept decoded after their readers let go: the last
    // hot_views decodes, so rereading a hot object costs no decode. Memory: up to hot_views decoded
    // objects (a 4 KB pod decodes to ~10 KB). Default 256; 0 keeps none.
    std::size_t hot_views = 256;
    // A bounded store: past this many bytes of compact forms (EncodedBytes), the objects least
    // recently stored or read are evicted until it holds at most 90% of it. A store that evicted
    // does not hold every object it was given (HasEvicted): a miss may be an evicted object, which
    // the cache then reads from the server. Default 0: unbounded.
    std::size_t max_bytes = 0;
};

// What one ingest did: the stored state before (null for a new object) and after.
struct StoreChange {
    CachedObject previous{};
    CachedObject current{};
};

// What Replace did.
struct StoreReplaceResult {
    // One per object given, in the order given.
    std::vector<StoreChange> changes{};
    // The objects held before that the new set lacks, with their last stored state, in key order.
    std::vector<CachedObject> deleted{};
};

class Store;

// The objects of a relist, gathered page by page for Store::Replace. Each object is transformed,
// encoded and indexed as it is added, so a relist holds one page of parsed objects at a time, not
// the whole set (which would also leave the heap fragmented). Made by Store::BeginReplace; used by
// one thread.
class StoreReplacement {
  public:
    StoreReplacement(StoreReplacement&&) noexcept;
    StoreReplacement& operator=(StoreReplacement&&) noexcept;
    ~StoreReplacement();

    // Takes one object; errors as Store::Add's (the object is then left out and the rest may follow).
    Status Add(Object object);
    std::size_t Size() const { return entries_.size(); }

    // For a watch stream whose ADDED objects (a streamed list) are to be written straight into the
    // store's compact form, with no Object built for them: the sink to give WatchStream::Next, valid
    // while this replacement lives; null when the store's transform needs Objects. When the store
    // DropsManagedFields, the stream must drop them (WatchDecoderOptions::drop_managed_fields).
    rest::WatchObjectSink* Sink();
    // Takes the object the sink completed last (an event with object_in_sink); errors as Add's.
    Status AddFromSink();

  private:
    friend class Store;
    StoreReplacement(const Store& store, std::vector<IndexFunc> index_funcs);

    const Store* store_;
    std::vector<IndexFunc> index_funcs_;
    std::vector<std::shared_ptr<const internal::StoredObject>> entries_;
    std::vector<std::vector<std::vector<std::string>>> index_values_;  // per entry, per index
    std::unique_ptr<internal::CompactBuilder> builder_;                // Sink's, made when first asked for
};

// The thread-safe store behind an informer (client-go's thread-safe indexer, kube-rs's reflector
// store): objects of one kind by namespace and name, immutable and shared once stored
// (docs/decisions.md, decision 20), kept in a compact binary form that holds ~0.5 bytes per byte of
// the objects' JSON (docs/decisions.md, decision 21). A read returns handles (CachedObject) that give an
// owning copy or a shared const view. Objects are ordered by namespace then name, which serves
// the namespace index; user indexes map values to objects (AddIndex, ByIndex).
//
// Many readers and writers may call at once; it is meant for one writer (the reflector). The
// transform, encoding and index functions of an ingest run on the writer's thread; readers wait
// only while the writer swaps entries in.
class Store final {
  public:
    explicit Store(StoreOptions options = {});
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    // Stores object (transformed), replacing any object with its namespace and name. BadRequest
    // when it has no name; the transform's error, naming the object, when it fails.
    StatusOr<StoreChange> Add(Object object);
    StatusOr<StoreChange> Update(Object object);
    // Drops the object; returns its last stored state, or null when none was held.
    CachedObject Delete(std::string_view namespace_name, std::string_view name);
    // Starts gathering a replacement set (see StoreReplacement).
    StoreReplacement BeginReplace() const;
    // Replaces everything with the gathered objects in one step (a relist): readers see the old set
    // or the new one, never a mix. Records resource_version as LastSyncResourceVersion.
    // BadRequest when the replacement was begun on another store.
    StatusOr<StoreReplaceResult> Replace(StoreReplacement replacement, std::string resource_version);
    // The same for objects at hand. On a transform error nothing changes.
    StatusOr<StoreReplaceResult> Replace(std::vector<Object> objects, std::string resource_version);

    // The object, or null.
    CachedObject Get(std::string_view namespace_name, std::string_view name) const;
    // The objects of a namespace ("" for every namespace, and for a cluster-scoped kind), in
    // namespace then name order.
    std::vector<CachedObject> List(std::string_view namespace_name = {}) const;
    // "namespace/name" (or "name") of every object, in order.
    std::vector<std::string> ListKeys() const;
    std::size_t Size() const;

    // Defines an index and indexes the objects already held (decoding each once). AlreadyExists
    // when an index of that name exists, kNamespaceIndex included.
    Status AddIndex(std::string name, IndexFunc fn);
    // The objects found under value in an index, in key order. NotFound naming the index when
    // there is no such index.
    StatusOr<std::vector<CachedObject>> ByIndex(std::string_view index, std::string_view value) const;
    // The values of an index that some object has, sorted. NotFound when there is no such index.
    StatusOr<std::vector<std::string>> IndexValues(std::string_view index) const;

    // Applies the store's transform to object (for an object that is not stored: the final state
    // a DELETED event carries). Errors as Add's.
    Status ApplyTransform(Object& object) const;
    // Whether the transform is StripManagedFields itself, so objects may come without their
    // managedFields already (a watch then never builds them).
    bool DropsManagedFields() const;

    // The resourceVersion of the last Replace ("" before the first).
    std::string LastSyncResourceVersion() const;
    // Bytes of the compact forms of the objects held (their heap cost, less per-object overhead).
    std::size_t EncodedBytes() const;
    // Whether an object of the last complete set (Replace) or given since was evicted (a bounded
    // store, StoreOptions::max_bytes): then a missing object may exist, and List is incomplete.
    bool HasEvicted() const;
    // Objects evicted since the store was made.
    int64_t Evictions() const;

  private:
    using EntryPtr = std::shared_ptr<const internal::StoredObject>;
    using EntryMap = std::map<std::string_view, EntryPtr, std::less<>>;  // keys point into the entries

    friend class StoreReplacement;

    // Transforms object in place and encodes it.
    StatusOr<EntryPtr> Encode(Object& object) const;
    StatusOr<StoreChange> Upsert(Object object);
    // Puts entry in map, replacing an entry with its key; returns the replaced one.
    static EntryPtr PutLocked(EntryMap& map, EntryPtr entry);
    CachedObject Handle(EntryPtr entry) const;
    // store_eviction.cpp: marks entry as used now.
    void Touch(const internal::StoredObject& entry) const;
    // Past max_bytes: moves the least recently used entries to evicted until the store holds at
    // most 90% of max_bytes (released by the caller once the lock is gone).
    void EvictLocked(std::vector<EntryPtr>& evicted);
    std::vector<CachedObject> ListLocked(std::string_view namespace_name) const;

    const StoreOptions options_;
    const std::shared_ptr<internal::StoreContext> context_;  // the member names, the hot views
    mutable std::shared_mutex mu_;
    EntryMap objects_;
    std::unique_ptr<internal::Indexer> indexer_;
    std::string last_sync_resource_version_;
    std::size_t encoded_bytes_ = 0;
    mutable std::atomic<uint64_t> clock_{0};  // Touch's ticks
    bool evicted_ = false;                    // since the last Replace
    int64_t evictions_ = 0;
};

}  // namespace ctrl::cache
