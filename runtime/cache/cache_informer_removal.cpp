// Cache: retiring a kind's informers (RemoveInformer, and a kind the server stopped serving).

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "ctrl/cache/cache.hpp"
#include "ctrl/cache/internal/cache_entry.hpp"
#include "ctrl/log/log.hpp"

namespace ctrl::cache {

Status Cache::RemoveInformer(const GroupVersionKind& gvk, bool metadata_only) {
    const Status why = CancelledError("RemoveInformer was called");
    if (!Retire(EntryKey{gvk, metadata_only}, nullptr, why))
        return NotFoundError("the cache has no informer for " + gvk.String() +
                             (metadata_only ? " (metadata only)" : ""));
    return OkStatus();
}

bool Cache::Retire(const EntryKey& key, const Informer* informer, const Status& why) {
    std::vector<std::shared_ptr<Informer>> informers;
    std::vector<Context> listeners;
    {
        std::lock_guard lock(mu_);
        const auto it = entries_.find(key);
        if (it == entries_.end())
            return false;
        Entry& entry = *it->second;
        const auto& held = entry.scope->informers;
        if (informer != nullptr &&
            std::none_of(held.begin(), held.end(), [informer](const auto& one) { return one.get() == informer; }))
            return false;  // an informer of an entry retired before
        informers = entry.scope->informers;
        retired_.push_back(std::move(it->second));
        entries_.erase(it);
        listeners = TakeListenersLocked(key);
    }
    for (const Context& listener : listeners)
        listener.Cancel(CancelledError("the informers of " + key.first.String() + " were removed"));
    const GroupVersionKind& gvk = key.first;
    for (const std::shared_ptr<Informer>& stopping : informers)
        stopping->Stop();
    if (IsNotFound(why))
        mapper_->Invalidate(GroupVersion{gvk.group, gvk.version});
    log::Logger().WithName("cache").Info("informers removed", "kind", gvk, "metadataOnly", key.second, "reason",
                                         why.Message());
    return true;
}

}  // namespace ctrl::cache
