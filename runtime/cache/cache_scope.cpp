// Cache: a kind's informers at run time: the cached namespaces (AddNamespace, RemoveNamespace, the
// namespace selector), its selectors (SetSelectors) and shard (SetShard), and the listeners told when they change.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/cache/cache.hpp"
#include "ctrl/cache/event_handler.hpp"
#include "ctrl/cache/internal/cache_entry.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/sharding/bucket_list.hpp"

namespace ctrl::cache {

// Adds the namespaces the selector's informer lists and watches, removes those it deletes (one
// unlabelled no longer matches, so the server sends its delete).
class Cache::NamespaceFollower final : public EventHandler {
  public:
    explicit NamespaceFollower(std::shared_ptr<Owner> owner) : owner_(std::move(owner)) {}

    void OnAdd(const std::shared_ptr<const Object>& object, bool /*is_initial_list*/) override {
        owner_->FollowNamespace(std::string(object->Name()), true);
    }
    void OnUpdate(const std::shared_ptr<const Object>& /*old_object*/,
                  const std::shared_ptr<const Object>& /*new_object*/) override {}
    void OnDelete(const std::shared_ptr<const Object>& last_known, bool /*final_state_unknown*/) override {
        owner_->FollowNamespace(std::string(last_known->Name()), false);
    }

  private:
    const std::shared_ptr<Owner> owner_;
};

std::shared_ptr<Informer> Cache::MakeNamespaceInformer() {
    ListWatchTarget target;
    target.resource = GroupVersionResource{"", "v1", "namespaces"};
    target.label_selector = options_.namespace_selector->String();
    target.metadata_only = true;
    auto informer = std::make_shared<Informer>(
        GroupVersionKind{"", "v1", "Namespace"}, rest_, std::move(target), StoreOptions{}, options_.reflector,
        options_.registry != nullptr ? *options_.registry : metrics::DefaultRegistry());
    (void)informer->AddEventHandler(std::make_shared<NamespaceFollower>(owner_));
    return informer;
}

Task<Status> Cache::WaitForNamespaces(Context& ctx) {
    if (!namespace_informer_ || !Started() || namespace_informer_->HasSynced())
        co_return OkStatus();
    co_return (co_await namespace_informer_->WaitForSync(ctx)).Annotate("the namespaces of the namespace selector");
}

std::vector<std::string> Cache::FollowedNamespacesLocked() const {
    if (namespaces_.empty() && !namespace_informer_)
        return {""};  // every namespace
    return {namespaces_.begin(), namespaces_.end()};
}

std::vector<std::string> Cache::Namespaces() const {
    std::lock_guard lock(mu_);
    return {namespaces_.begin(), namespaces_.end()};
}

Status Cache::AddNamespace(const std::string& namespace_name) {
    if (namespace_name.empty())
        return BadRequestError("AddNamespace: a namespace name is required");
    std::vector<Context> listeners;
    {
        std::lock_guard lock(mu_);
        if (namespaces_.empty() && !namespace_informer_)
            return BadRequestError("AddNamespace(\"" + namespace_name +
                                   "\"): the cache holds every namespace (no namespaces were configured)");
        if (!namespaces_.insert(namespace_name).second)
            return OkStatus();
        for (auto& [key, entry] : entries_) {
            if (!entry->follows_namespaces)
                continue;
            auto scope = std::make_shared<Scope>(*entry->scope);
            std::shared_ptr<Informer> informer = MakeInformer(key, *entry, namespace_name);
            scope->namespaces.push_back(namespace_name);
            scope->informers.push_back(informer);
            SetScopeLocked(key, *entry, std::move(scope), listeners);
            if (started_ctx_)
                RunInformerLocked(key, informer);
        }
    }
    log::Logger().WithName("cache").Info("namespace added to the cache", "namespace", namespace_name);
    for (const Context& listener : listeners)
        listener.Cancel(CancelledError("namespace " + namespace_name + " was added to the cache"));
    return OkStatus();
}

Status Cache::RemoveNamespace(const std::string& namespace_name) {
    std::vector<Context> listeners;
    std::vector<std::shared_ptr<Informer>> removed;
    {
        std::lock_guard lock(mu_);
        if (namespaces_.empty() && !namespace_informer_)
            return BadRequestError("RemoveNamespace(\"" + namespace_name +
                                   "\"): the cache holds every namespace (no namespaces were configured)");
        if (namespaces_.erase(namespace_name) == 0)
            return OkStatus();
        for (auto& [key, entry] : entries_) {
            if (!entry->follows_namespaces)
                continue;
            auto scope = std::make_shared<Scope>();
            const Scope& current = *entry->scope;
            for (std::size_t i = 0; i < current.informers.size(); ++i) {
                if (current.namespaces[i] == namespace_name) {
                    removed.push_back(current.informers[i]);
                    continue;
                }
                scope->namespaces.push_back(current.namespaces[i]);
                scope->informers.push_back(current.informers[i]);
            }
            SetScopeLocked(key, *entry, std::move(scope), listeners);
        }
    }
    // Stopped outside the lock: each empties its store (its objects freed once no read holds them).
    for (const std::shared_ptr<Informer>& informer : removed)
        informer->Stop();
    log::Logger().WithName("cache").Info("namespace removed from the cache", "namespace", namespace_name, "informers",
                                         removed.size());
    for (const Context& listener : listeners)
        listener.Cancel(CancelledError("namespace " + namespace_name + " was removed from the cache"));
    return OkStatus();
}

Status Cache::SetSelectors(const GroupVersionKind& gvk, bool metadata_only, LabelSelector labels,
                           FieldSelector fields) {
    const EntryKey key{gvk, metadata_only};
    std::vector<Context> listeners;
    std::vector<std::shared_ptr<Informer>> replaced;
    {
        std::lock_guard lock(mu_);
        selectors_[key] = {std::move(labels), std::move(fields)};
        replaced = RestartInformersLocked(key, listeners);
    }
    for (const std::shared_ptr<Informer>& informer : replaced)
        informer->Stop();
    if (!replaced.empty())
        log::Logger().WithName("cache").Info("informers restarted with new selectors", "kind", gvk, "informers",
                                             replaced.size());
    for (const Context& listener : listeners)
        listener.Cancel(CancelledError("the selectors of " + gvk.String() + " changed"));
    return OkStatus();
}

Status Cache::SetShard(const GroupVersionKind& gvk, bool metadata_only, sharding::ShardFilter shard) {
    const EntryKey key{gvk, metadata_only};
    std::vector<Context> listeners;
    std::vector<std::shared_ptr<Informer>> replaced;
    const std::string buckets = sharding::FormatBucketList(shard.Owned());
    {
        std::lock_guard lock(mu_);
        if (shard.SelectsEverything())
            shards_.erase(key);
        else
            shards_[key] = std::move(shard);
        replaced = RestartInformersLocked(key, listeners);
    }
    for (const std::shared_ptr<Informer>& informer : replaced)
        informer->Stop();
    if (!replaced.empty())
        log::Logger().WithName("cache").Info("informers restarted with a new shard", "kind", gvk, "buckets", buckets,
                                             "informers", replaced.size());
    for (const Context& listener : listeners)
        listener.Cancel(CancelledError("the shard of " + gvk.String() + " changed"));
    return OkStatus();
}

std::vector<std::shared_ptr<Informer>> Cache::RestartInformersLocked(const EntryKey& key,
                                                                     std::vector<Context>& listeners) {
    const auto it = entries_.find(key);
    if (it == entries_.end())
        return {};  // informers made later use the new settings
    Entry& entry = *it->second;
    auto scope = std::make_shared<Scope>();
    scope->namespaces = entry.scope->namespaces;
    for (const std::string& namespace_name : scope->namespaces)
        scope->informers.push_back(MakeInformer(key, entry, namespace_name));
    std::vector<std::shared_ptr<Informer>> replaced = entry.scope->informers;
    SetScopeLocked(key, entry, scope, listeners);
    if (started_ctx_)
        for (const auto& informer : scope->informers)
            RunInformerLocked(key, informer);
    return replaced;
}

void Cache::SetScopeLocked(const EntryKey& key, Entry& entry, std::shared_ptr<const Scope> scope,
                           std::vector<Context>& listeners) {
    entry.scope = std::move(scope);
    for (Context& listener : TakeListenersLocked(key))
        listeners.push_back(std::move(listener));
}

std::vector<Context> Cache::TakeListenersLocked(const EntryKey& key) {
    const auto it = scope_listeners_.find(key);
    if (it == scope_listeners_.end())
        return {};
    std::vector<Context> listeners = std::move(it->second);
    scope_listeners_.erase(it);
    return listeners;
}

void Cache::CancelOnInformersChanged(Context ctx, const GroupVersionKind& gvk, bool metadata_only) {
    std::lock_guard lock(mu_);
    std::vector<Context>& listeners = scope_listeners_[EntryKey{gvk, metadata_only}];
    // Listeners whose context ended (a source's finished round) are dropped as new ones come.
    std::erase_if(listeners, [](const Context& listener) { return !listener.Err().Ok(); });
    listeners.push_back(std::move(ctx));
}

}  // namespace ctrl::cache
