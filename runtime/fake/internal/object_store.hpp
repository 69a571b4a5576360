#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/client/options.hpp"
#include "ctrl/client/patch.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/discovery/rest_mapper.hpp"
#include "ctrl/fake/index_func.hpp"

namespace ctrl::fake::internal {

// What the store needs to know of a kind: its resource and scope, and whether it has a status
// subresource (then writes of the object keep status, status writes keep everything else, and
// metadata.generation counts changes outside metadata and status).
struct KindRules {
    discovery::RESTMapping mapping{};
    bool status_subresource = false;
    // Whether the server keeps metadata.generation for the kind (custom resources, most kinds with
    // a status subresource): 1 on create, one more on each change outside metadata and status.
    bool tracks_generation = false;
};

// Which part of an object a write may change.
enum class WriteScope { kObject, kStatus };

// The objects of a fake API server, with its rules: one resourceVersion counter for all objects,
// uid and creationTimestamp on create, generateName, optimistic concurrency, the status
// subresource, finalizers and graceful deletion, list selection and pages. Objects are kept whole
// (apiVersion and kind of their mapping); callers cut them to the form asked for. Thread-safe:
// every call takes one lock and completes without waiting for anything else.
class ObjectStore {
  public:
    // Makes field selectors on field answerable for kind, from extract's values.
    void AddIndex(const GroupKind& kind, std::string field, IndexFunc extract);
    // Adds an initial object as it is (the builder's WithObjects): a resourceVersion, uid and
    // creationTimestamp are filled in only when missing. AlreadyExists for a duplicate.
    Status Seed(const KindRules& kind, Object object);

    StatusOr<Object> Get(const KindRules& kind, const ObjectKey& key) const;
    // The objects options select, ordered by namespace and name, one page when options.limit is set.
    StatusOr<ObjectList> List(const KindRules& kind, const client::ListOptions& options) const;
    StatusOr<Object> Create(const KindRules& kind, Object object, bool dry_run);
    // Replaces the object of object's key (its status only, for kStatus).
    StatusOr<Object> Update(const KindRules& kind, Object object, WriteScope scope, bool dry_run);
    StatusOr<Object> Patch(const KindRules& kind, const ObjectKey& key, client::PatchType type, std::string_view data,
                           WriteScope scope, bool dry_run);
    Status Delete(const KindRules& kind, const ObjectKey& key, const client::DeleteOptions& options);
    Status DeleteCollection(const KindRules& kind, const client::ListOptions& selection,
                            const client::DeleteOptions& options);

  private:
    struct Key {
        GroupResource resource;
        std::string namespace_name;
        std::string name;
        auto operator<=>(const Key&) const = default;
    };
    using Objects = std::map<Key, Object>;

    static Key KeyOf(const KindRules& kind, const ObjectKey& key);
    // The stored object of key, or NotFound.
    StatusOr<Objects::iterator> FindLocked(const KindRules& kind, const ObjectKey& key);
    std::string NextVersionLocked() { return std::to_string(++version_); }
    // Writes proposed over old (found at at) with the server's rules for scope; the answer.
    StatusOr<Object> CommitLocked(const KindRules& kind, Objects::iterator at, Object proposed, WriteScope scope,
                                  bool dry_run);
    Status DeleteLocked(const KindRules& kind, Objects::iterator at, const client::DeleteOptions& options);
    StatusOr<std::vector<Objects::const_iterator>> SelectLocked(const KindRules& kind,
                                                                const client::ListOptions& options) const;

    mutable std::mutex mutex_;
    Objects objects_;
    uint64_t version_ = 0;
    std::map<GroupKind, std::map<std::string, IndexFunc>> indexes_;
};

}  // namespace ctrl::fake::internal
