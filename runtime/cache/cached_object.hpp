#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::cache {

namespace internal {
class StoredObject;
struct StoreContext;
}  // namespace internal

// One object as a cache holds it (docs/decisions.md, decision 20): immutable, shared, kept in a compact
// binary form. Reading it gives either an owning copy (Copy, the default of the cached reader,
// as controller-runtime's) or a shared const view (Shared: decoded once and shared by everyone
// who holds it). Key, namespace, name, labels and resourceVersion are read without decoding the
// whole object. A handle stays valid after the store replaced or dropped the object: it then
// reads the state it had. A default-constructed handle is null (no object). Cheap to copy;
// thread-safe.
class CachedObject {
  public:
    CachedObject() = default;
    CachedObject(std::shared_ptr<const internal::StoredObject> entry,
                 std::shared_ptr<const internal::StoreContext> context)
        : entry_(std::move(entry)), context_(std::move(context)) {}

    explicit operator bool() const { return entry_ != nullptr; }

    // "namespace/name", or "name" for a cluster-scoped object: the store's key.
    std::string_view StoreKey() const;
    std::string_view Namespace() const;
    std::string_view Name() const;
    ObjectKey Key() const { return {std::string(Namespace()), std::string(Name())}; }
    // metadata.resourceVersion ("" when missing).
    std::string ResourceVersion() const;
    // metadata.labels (string values only).
    std::map<std::string, std::string> Labels() const;

    // An owning deep copy, with a pool sized to fit (about 4 us for a 5 KB pod).
    Object Copy() const;
    // A shared const view: the one someone already holds or the store keeps hot (its last few
    // hundred decodes, StoreOptions::hot_views), else a fresh decode that the next reader gets too
    // while anyone holds it.
    std::shared_ptr<const Object> Shared() const;

    // Bytes of the compact form.
    std::size_t EncodedBytes() const;

    // Whether both name the same stored state (not merely equal content).
    friend bool operator==(const CachedObject& a, const CachedObject& b) { return a.entry_ == b.entry_; }

  private:
    std::shared_ptr<const internal::StoredObject> entry_;
    std::shared_ptr<const internal::StoreContext> context_;
};

}  // namespace ctrl::cache
