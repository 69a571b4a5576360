// Cache: the reads of client::Reader (GetObject, ListObjects) and their shared forms (GetShared,
// ListShared), over Find and Select; a bounded kind's evicted objects are read from the server.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/cache/cache.hpp"
#include "ctrl/cache/internal/cache_entry.hpp"
#include "ctrl/cache/internal/cache_reader.hpp"
#include "ctrl/client/object_checks.hpp"

namespace ctrl::cache {

Task<Status> Cache::GetObject(Context ctx, ObjectKey key, Object& object, client::ObjectForm form,
                              client::GetOptions /*options*/) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, client::KindOfObject(object));
    const bool metadata_only = form == client::ObjectForm::kMetadata;
    StatusOr<CachedObject> cached = co_await Find(ctx, gvk, metadata_only, key);
    if (!cached.Ok()) {
        if (IsNotFound(cached.GetStatus()) && MayHaveEvicted(gvk, metadata_only, key.namespace_name))
            co_return co_await GetEvicted(ctx, gvk, key, object, form);
        co_return cached.GetStatus();
    }
    object = internal::MaterializeCopy(*cached, form, gvk);
    co_return OkStatus();
}

Task<Status> Cache::ListObjects(Context ctx, ObjectList& list, client::ObjectForm form, client::ListOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, client::ItemKindOfList(list));
    const bool metadata_only = form == client::ObjectForm::kMetadata;
    const client::ListOptions requested = options;
    std::string resource_version;
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<CachedObject> selected,
                             co_await Select(ctx, gvk, metadata_only, options, resource_version));
    // Checked once synced: a bounded kind evicts as its first list goes in.
    if (MayHaveEvicted(gvk, metadata_only, options.namespace_name))
        co_return co_await ListEvicted(ctx, gvk, list, form, requested);
    list.Items().clear();
    list.SetContinue("");
    list.Items().reserve(selected.size());
    for (const CachedObject& cached : selected)
        list.Items().push_back(internal::MaterializeCopy(cached, form, gvk));
    if (!resource_version.empty())
        list.SetResourceVersion(resource_version);
    co_return OkStatus();
}

Task<StatusOr<std::shared_ptr<const Object>>> Cache::GetShared(Context ctx, GroupVersionKind gvk, ObjectKey key) {
    StatusOr<CachedObject> cached = co_await Find(ctx, gvk, /*metadata_only=*/false, key);
    if (cached.Ok())
        co_return cached->Shared();
    if (!IsNotFound(cached.GetStatus()) || !MayHaveEvicted(gvk, false, key.namespace_name))
        co_return cached.GetStatus();
    Object live;
    live.SetApiVersion(gvk.ApiVersion());
    live.SetKind(gvk.kind);
    CTRL_CO_RETURN_IF_ERROR(co_await GetEvicted(ctx, gvk, key, live, client::ObjectForm::kUnstructured));
    co_return std::make_shared<const Object>(std::move(live));
}

Task<StatusOr<std::vector<std::shared_ptr<const Object>>>> Cache::ListSharedSelected(Context ctx, GroupVersionKind gvk,
                                                                                     client::ListOptions options) {
    std::vector<std::shared_ptr<const Object>> shared;
    const client::ListOptions requested = options;
    std::string resource_version;
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<CachedObject> selected,
                             co_await Select(ctx, gvk, /*metadata_only=*/false, options, resource_version));
    // Checked once synced: a bounded kind evicts as its first list goes in.
    if (MayHaveEvicted(gvk, false, options.namespace_name)) {
        ObjectList live;
        live.SetApiVersion(gvk.ApiVersion());
        live.SetKind(gvk.kind + "List");
        CTRL_CO_RETURN_IF_ERROR(co_await ListEvicted(ctx, gvk, live, client::ObjectForm::kUnstructured, requested));
        for (Object& item : live.Items())
            shared.push_back(std::make_shared<const Object>(std::move(item)));
        co_return shared;
    }
    shared.reserve(selected.size());
    for (const CachedObject& cached : selected)
        shared.push_back(cached.Shared());
    co_return shared;
}

}  // namespace ctrl::cache
