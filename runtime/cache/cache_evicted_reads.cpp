// Cache: reads of a bounded kind's evicted objects (ByObject::max_bytes), answered by the server.

#include <mutex>
#include <string_view>

#include "ctrl/cache/cache.hpp"
#include "ctrl/cache/internal/cache_entry.hpp"

namespace ctrl::cache {

bool Cache::MayHaveEvicted(const GroupVersionKind& gvk, bool metadata_only, std::string_view namespace_name) const {
    // Every cached List asks: an unbounded kind answers without the lock.
    const auto by_object = options_.by_object.find(gvk);
    if (by_object == options_.by_object.end() || by_object->second.max_bytes.value_or(0) == 0)
        return false;
    std::shared_ptr<const Scope> scope;
    {
        std::lock_guard lock(mu_);
        const auto it = entries_.find(EntryKey{gvk, metadata_only});
        if (it == entries_.end())
            return false;
        scope = it->second->scope;
    }
    for (std::size_t i = 0; i < scope->informers.size(); ++i)
        if (scope->Serves(i, namespace_name) && scope->informers[i]->GetStore().HasEvicted())
            return true;
    return false;
}

Task<Status> Cache::GetEvicted(Context& ctx, const GroupVersionKind& gvk, const ObjectKey& key, Object& object,
                               client::ObjectForm form) {
    if (live_reader_ == nullptr)
        co_return UnavailableError("the cache evicted objects of " + gvk.String() +
                                   " (ByObject::max_bytes) and has no reader for the server (SetLiveReader)");
    evicted_reads_.WithLabelValues({gvk.String(), "get"}).Inc();
    client::GetOptions options;
    co_return co_await live_reader_->GetObject(ctx, key, object, form, options);
}

Task<Status> Cache::ListEvicted(Context& ctx, const GroupVersionKind& gvk, ObjectList& list, client::ObjectForm form,
                                const client::ListOptions& options) {
    if (live_reader_ == nullptr)
        co_return UnavailableError("the cache evicted objects of " + gvk.String() +
                                   " (ByObject::max_bytes) and has no reader for the server (SetLiveReader)");
    evicted_reads_.WithLabelValues({gvk.String(), "list"}).Inc();
    co_return co_await live_reader_->ListObjects(ctx, list, form, options);
}

}  // namespace ctrl::cache
