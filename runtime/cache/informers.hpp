#pragma once

#include <string>
#include <vector>

#include "ctrl/cache/informer.hpp"
#include "ctrl/core/await_safe_function.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/sharding/shard_filter.hpp"

namespace ctrl::cache {

// Extracts the values an object is indexed under for one field (IndexField). IndexField is awaited,
// so a temporary extractor that captures by copy does not compile (AwaitSafeFunction): name it.
using FieldExtractor = AwaitSafeFunction<std::vector<std::string>(const Object&)>;

// What controllers watch through (controller-runtime's cache.Informers): the informers of a kind,
// made on first use, their sync, and field indexes. cache::Cache implements it with client::Reader;
// a test can substitute either.
class Informers {
  public:
    virtual ~Informers() = default;

    // The informers of gvk (one per cached namespace), made (and run, when the cache runs) if
    // missing. NoMatch when the server serves no such kind.
    virtual Task<StatusOr<std::vector<Informer*>>> GetInformers(Context ctx, GroupVersionKind gvk,
                                                                bool metadata_only) = 0;
    // Waits until every informer made so far has synced; on failure names each kind that did not
    // and why.
    virtual Task<Status> WaitForCacheSync(Context ctx) = 0;
    // Adds a field index to gvk's informers: List with MatchingFields(field, value) then finds the
    // objects whose extract() returns value.
    virtual Task<Status> IndexField(Context ctx, GroupVersionKind gvk, std::string field, FieldExtractor extract) = 0;
    // Stops gvk's informers (in that form) and frees what they hold; the next GetInformers makes
    // new ones. NotFound when there are none.
    virtual Status RemoveInformer(const GroupVersionKind& gvk, bool metadata_only) = 0;
    // Holds only this shard of gvk's objects from now on (its informers restarted with it), for a
    // sharded controller. Default: BadRequest (an Informers that cannot shard).
    virtual Status SetShard(const GroupVersionKind& gvk, bool /*metadata_only*/, sharding::ShardFilter /*shard*/) {
        return BadRequestError("these informers cannot hold a shard of " + gvk.String());
    }
    // Cancels ctx once gvk's informers change (one added or removed for a cached namespace).
    // Default: the informers never change but by stopping (Informer::CancelOnStop).
    virtual void CancelOnInformersChanged(Context /*ctx*/, const GroupVersionKind& /*gvk*/, bool /*metadata_only*/) {}
};

}  // namespace ctrl::cache
