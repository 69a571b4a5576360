// Cache reads that never suspend: GetSharedNow / ListSharedNow answer from informers that have
// synced, for code running on the loop that must not wait (event handlers' map functions); FindNow
// is every named read's fast path.

#include <mutex>
#include <utility>

#include "ctrl/cache/cache.hpp"
#include "ctrl/cache/internal/cache_entry.hpp"
#include "ctrl/cache/internal/cache_reader.hpp"
#include "ctrl/client/object_checks.hpp"

namespace ctrl::cache {

StatusOr<std::pair<const Cache::Entry*, std::shared_ptr<const Cache::Scope>>> Cache::SyncedEntryNow(
    const GroupVersionKind& gvk) const {
    const Entry* entry = nullptr;
    std::shared_ptr<const Scope> scope;
    {
        std::lock_guard lock(mu_);
        for (const bool metadata_only : {false, true}) {
            if (auto it = entries_.find(EntryKey{gvk, metadata_only}); it != entries_.end()) {
                entry = it->second.get();
                scope = entry->scope;
                break;
            }
        }
    }
    if (entry == nullptr)
        return UnavailableError("the cache has no informer for " + gvk.String() +
                                " yet: read the kind once (or GetInformers) before reading it without waiting");
    for (const std::shared_ptr<Informer>& informer : scope->informers)
        if (!informer->HasSynced())
            return UnavailableError("the informer of " + gvk.String() + " has not synced yet");
    return std::make_pair(entry, std::move(scope));
}

StatusOr<std::vector<Informer*>> Cache::NamedReadInformers(const Entry& entry, const Scope& scope, const ObjectKey& key,
                                                           std::string& namespace_name) const {
    CTRL_RETURN_IF_ERROR(client::CheckNamedKey(entry.mapping, key, "get"));
    namespace_name = entry.mapping.Namespaced() ? key.namespace_name : std::string();
    return ChooseInformers(entry, scope, namespace_name, /*named_read=*/true);
}

StatusOr<CachedObject> Cache::GetNamed(const Entry& entry, const std::vector<Informer*>& informers,
                                       std::string_view namespace_name, std::string_view name) {
    for (const Informer* informer : informers)
        if (CachedObject cached = informer->GetStore().Get(namespace_name, name))
            return cached;
    return internal::ObjectNotFound(entry.mapping, name);
}

std::optional<StatusOr<CachedObject>> Cache::FindNow(const GroupVersionKind& gvk, bool metadata_only,
                                                     const ObjectKey& key) const {
    const Entry* entry = nullptr;
    std::shared_ptr<const Scope> scope;
    {
        std::lock_guard lock(mu_);
        if (auto it = entries_.find(EntryKey{gvk, metadata_only}); it != entries_.end()) {
            entry = it->second.get();
            scope = entry->scope;
        }
    }
    if (entry == nullptr || !Started())
        return std::nullopt;
    std::string namespace_name;
    StatusOr<std::vector<Informer*>> chosen = NamedReadInformers(*entry, *scope, key, namespace_name);
    if (!chosen.Ok())
        return chosen.GetStatus();
    for (const Informer* informer : *chosen)
        if (!informer->HasSynced())
            return std::nullopt;
    // A write of this process the informer has not seen yet: Find waits for it.
    if (!WritesReflectedNow(*entry, *chosen, namespace_name, &key.name, /*count_unwaited=*/false))
        return std::nullopt;
    return GetNamed(*entry, *chosen, namespace_name, key.name);
}

StatusOr<std::shared_ptr<const Object>> Cache::GetSharedNow(const GroupVersionKind& gvk, const ObjectKey& key) const {
    CTRL_ASSIGN_OR_RETURN(auto synced, SyncedEntryNow(gvk));
    const auto& [entry, scope] = synced;
    std::string namespace_name;
    CTRL_ASSIGN_OR_RETURN(std::vector<Informer*> chosen, NamedReadInformers(*entry, *scope, key, namespace_name));
    (void)WritesReflectedNow(*entry, chosen, namespace_name, &key.name, /*count_unwaited=*/true);
    StatusOr<CachedObject> cached = GetNamed(*entry, chosen, namespace_name, key.name);
    if (!cached.Ok() && IsNotFound(cached.GetStatus()) && MayHaveEvicted(gvk, false, namespace_name))
        return EvictedNow(gvk);
    CTRL_RETURN_IF_ERROR(cached.GetStatus());
    return cached->Shared();
}

Status Cache::EvictedNow(const GroupVersionKind& gvk) {
    return UnavailableError("the cache of " + gvk.String() +
                            " evicted objects (ByObject::max_bytes): a read that must not wait cannot ask the server; "
                            "read it with GetShared or the client");
}

StatusOr<std::vector<std::shared_ptr<const Object>>> Cache::ListSharedNow(const GroupVersionKind& gvk,
                                                                          const client::ListOptions& options) const {
    CTRL_ASSIGN_OR_RETURN(auto synced, SyncedEntryNow(gvk));
    const auto& [entry, scope] = synced;
    std::vector<std::shared_ptr<const Object>> shared;
    if (options.label_selector.IsNothing())
        return shared;
    if (MayHaveEvicted(gvk, false, entry->mapping.Namespaced() ? options.namespace_name : std::string()))
        return EvictedNow(gvk);
    client::ListOptions selected = options;
    if (!entry->mapping.Namespaced())
        selected.namespace_name.clear();
    CTRL_ASSIGN_OR_RETURN(std::vector<Informer*> chosen,
                          ChooseInformers(*entry, *scope, selected.namespace_name, /*named_read=*/false));
    (void)WritesReflectedNow(*entry, chosen, selected.namespace_name, nullptr, /*count_unwaited=*/true);
    std::vector<const Store*> stores;
    for (const Informer* informer : chosen)
        stores.push_back(&informer->GetStore());
    CTRL_ASSIGN_OR_RETURN(std::vector<CachedObject> objects, internal::SelectObjects(stores, selected));
    shared.reserve(objects.size());
    for (const CachedObject& object : objects)
        shared.push_back(object.Shared());
    return shared;
}

}  // namespace ctrl::cache
