#include "ctrl/cache/cache.hpp"

#include <algorithm>
#include <exception>
#include <utility>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/cache/internal/cache_entry.hpp"
#include "ctrl/cache/internal/cache_reader.hpp"
#include "ctrl/client/object_checks.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/protobuf/transcode.hpp"

namespace ctrl::cache {
namespace {

Status NotStarted() {
    return UnavailableError(
        "the cache is not started: run it (Cache::Run or Start; the Manager does) before reading from it");
}

}  // namespace

// One kind (in one form) as cached: its mapping and its informers, one per cached namespace.
// The informers a Run started, counted so that Run can wait until every one has returned, and
// the first error one returned.
struct Cache::Running {
    std::mutex mu;
    int informers = 0;
    bool ending = false;
    Status failure;
    Notification all_returned;

    void Started() {
        std::lock_guard lock(mu);
        ++informers;
    }
    void Returned(const Status& status) {
        bool last = false;
        {
            std::lock_guard lock(mu);
            if (failure.Ok() && !status.Ok())
                failure = status;
            last = --informers == 0 && ending;
        }
        if (last)
            all_returned.Notify();
    }
    void End() {
        bool none = false;
        {
            std::lock_guard lock(mu);
            ending = true;
            none = informers == 0;
        }
        if (none)
            all_returned.Notify();
    }
};

Cache::Cache(std::shared_ptr<rest::RestClient> rest, std::shared_ptr<discovery::RESTMapper> mapper,
             boost::asio::any_io_executor executor, CacheOptions options)
    : rest_(std::move(rest)),
      mapper_(std::move(mapper)),
      executor_(std::move(executor)),
      options_(std::move(options)),
      running_(std::make_shared<Running>()),
      evicted_reads_((options_.registry != nullptr ? *options_.registry : metrics::DefaultRegistry())
                         .AddCounter("ctrl_cache_evicted_reads_total",
                                     "Cache reads of a bounded kind that went to the API server because objects "
                                     "were evicted, by kind and verb (get, list).",
                                     {"gvk", "verb"})),
      write_waits_(std::make_unique<WriteWaitMetrics>(options_.registry != nullptr ? *options_.registry
                                                                                   : metrics::DefaultRegistry())),
      owner_(std::make_shared<Owner>(this)) {
    namespaces_.insert(options_.default_namespaces.begin(), options_.default_namespaces.end());
    namespaces_.erase("");
    if (options_.namespace_selector)
        namespace_informer_ = MakeNamespaceInformer();
}

Cache::~Cache() {
    {
        std::lock_guard lock(owner_->mu);
        owner_->cache = nullptr;
    }
    // Informers still running hold themselves; stop them so they go.
    std::lock_guard lock(mu_);
    if (started_ctx_)
        started_ctx_->Cancel();
}

std::optional<Context> Cache::Begin(const Context& ctx) {
    std::optional<Context> started;
    {
        std::lock_guard lock(mu_);
        if (started_ctx_)
            return std::nullopt;
        started_ctx_ = Context::WithCancel(ctx);
        if (namespace_informer_)
            RunInformerLocked(EntryKey{namespace_informer_->Kind(), true}, namespace_informer_);
        for (auto& [key, entry] : entries_)
            for (const auto& informer : entry->scope->informers)
                RunInformerLocked(key, informer);
        started = started_ctx_;
    }
    started_.Notify();
    return started;
}

void Cache::RunInformerLocked(const EntryKey& key, const std::shared_ptr<Informer>& informer) {
    running_->Started();
    // An informer that fails (a bug) stops the others: Run then returns its error. One whose kind
    // is not served any more (NotFound) is retired instead.
    boost::asio::co_spawn(executor_, informer->Run(*started_ctx_),
                          [running = running_, owner = owner_, ctx = *started_ctx_, key, stopped = informer.get()](
                              std::exception_ptr error, Status status) {
                              if (error)
                                  status = InternalError("an informer's Run threw");
                              if (IsNotFound(status)) {
                                  owner->Retire(key, stopped, status);
                                  status = OkStatus();
                              }
                              if (!status.Ok())
                                  ctx.Cancel(status);
                              running->Returned(status);
                          });
}

Task<Status> Cache::Run(Context ctx) {
    const std::shared_ptr<Running> running = running_;
    const std::optional<Context> run_ctx = Begin(ctx);
    if (!run_ctx)
        co_return AlreadyExistsError("the cache is running already (Run or Start was called before)");
    // Nothing notifies this one: the wait ends when run_ctx does.
    const Notification until_the_context_ends;
    (void)co_await until_the_context_ends.Wait(*run_ctx);
    running->End();
    (void)co_await running->all_returned.Wait(Context::Background());
    std::lock_guard lock(running->mu);
    co_return running->failure;
}

void Cache::Start(Context ctx) {
    (void)Begin(ctx);
}

bool Cache::Started() const {
    std::lock_guard lock(mu_);
    return started_ctx_.has_value();
}

Task<Status> Cache::WaitForStarted(Context ctx) const {
    return started_.Wait(std::move(ctx));
}

bool Cache::Stopped() const {
    std::lock_guard lock(mu_);
    for (const auto& [key, entry] : entries_)
        for (const auto& informer : entry->scope->informers)
            if (informer->Started() && !informer->Stopped())
                return false;
    return !namespace_informer_ || !namespace_informer_->Started() || namespace_informer_->Stopped();
}

std::shared_ptr<const Cache::Scope> Cache::ScopeOf(const Entry& entry) const {
    std::lock_guard lock(mu_);
    return entry.scope;
}

StoreOptions Cache::StoreOptionsFor(const GroupVersionKind& gvk) const {
    StoreOptions store;
    store.transform = options_.default_transform;
    store.hot_views = options_.hot_views;
    if (auto it = options_.by_object.find(gvk); it != options_.by_object.end()) {
        if (it->second.transform)
            store.transform = *it->second.transform;
        store.max_bytes = it->second.max_bytes.value_or(0);
    }
    return store;
}

Task<StatusOr<Cache::Entry*>> Cache::EntryFor(Context& ctx, const GroupVersionKind& gvk, bool metadata_only,
                                              bool for_read) {
    const EntryKey key{gvk, metadata_only};
    {
        std::lock_guard lock(mu_);
        if (auto it = entries_.find(key); it != entries_.end())
            co_return it->second.get();
    }
    if (for_read && options_.reader_fail_on_missing_informer)
        co_return NotFoundError("the cache has no informer for " + gvk.String() +
                                (metadata_only ? " (metadata only)" : "") +
                                " and reads may not start one (reader_fail_on_missing_informer)");
    std::optional<discovery::RESTMapping> mapping = mapper_->CachedMapping(gvk);
    if (!mapping) {
        GroupKind kind = gvk.ToGroupKind();
        std::vector<std::string> versions{gvk.version};
        StatusOr<discovery::RESTMapping> found =
            co_await mapper_->RESTMapping(ctx, std::move(kind), std::move(versions));
        if (!found.Ok())
            co_return found.GetStatus();
        mapping = std::move(found).Value();
    }
    const auto by_object = options_.by_object.find(gvk);
    const ByObject* per_kind = by_object != options_.by_object.end() ? &by_object->second : nullptr;
    const bool follows = mapping->Namespaced() && (per_kind == nullptr || !per_kind->namespaces);
    if (follows)
        CTRL_CO_RETURN_IF_ERROR(co_await WaitForNamespaces(ctx));

    std::lock_guard lock(mu_);
    if (auto it = entries_.find(key); it != entries_.end())
        co_return it->second.get();  // made meanwhile
    auto entry = std::make_unique<Entry>();
    entry->mapping = *mapping;
    entry->follows_namespaces = follows;
    std::vector<std::string> namespaces{""};
    if (follows)
        namespaces = FollowedNamespacesLocked();
    else if (mapping->Namespaced() && !per_kind->namespaces->empty())
        namespaces = *per_kind->namespaces;
    auto scope = std::make_shared<Scope>();
    for (const std::string& namespace_name : namespaces) {
        scope->namespaces.push_back(namespace_name);
        scope->informers.push_back(MakeInformer(key, *entry, namespace_name));
    }
    entry->scope = std::move(scope);
    auto [it, inserted] = entries_.emplace(key, std::move(entry));
    if (started_ctx_)
        for (const auto& informer : it->second->scope->informers)
            RunInformerLocked(key, informer);
    co_return it->second.get();
}

std::shared_ptr<Informer> Cache::MakeInformer(const EntryKey& key, const Entry& entry,
                                              const std::string& namespace_name) const {
    const auto& [gvk, metadata_only] = key;
    const discovery::RESTMapping& mapping = entry.mapping;
    const auto by_object = options_.by_object.find(gvk);
    const ByObject* per_kind = by_object != options_.by_object.end() ? &by_object->second : nullptr;
    const LabelSelector* labels =
        per_kind != nullptr && per_kind->label_selector ? &*per_kind->label_selector : &options_.default_label_selector;
    const FieldSelector* fields =
        per_kind != nullptr && per_kind->field_selector ? &*per_kind->field_selector : &options_.default_field_selector;
    if (auto set = selectors_.find(key); set != selectors_.end()) {
        labels = &set->second.first;
        fields = &set->second.second;
    }
    ListWatchTarget target;
    target.resource = mapping.resource;
    target.namespaced = mapping.Namespaced();
    target.namespace_name = namespace_name;
    target.label_selector = labels->String();
    target.field_selector = fields->String();
    if (auto shard = shards_.find(key); shard != shards_.end())
        target.shard = shard->second;
    target.metadata_only = metadata_only;
    target.protobuf = options_.protobuf && !metadata_only && protobuf::HasBuiltinSchema(gvk.ApiVersion(), gvk.kind);
    auto informer =
        std::make_shared<Informer>(gvk, rest_, std::move(target), StoreOptionsFor(gvk), options_.reflector,
                                   options_.registry != nullptr ? *options_.registry : metrics::DefaultRegistry());
    for (const auto& [index, fn] : entry.indexes)
        (void)informer->AddIndex(index, fn);
    return informer;
}

Task<StatusOr<std::vector<Informer*>>> Cache::GetInformers(Context ctx, GroupVersionKind gvk, bool metadata_only) {
    CTRL_CO_ASSIGN_OR_RETURN(Entry * entry, co_await EntryFor(ctx, gvk, metadata_only, /*for_read=*/false));
    std::vector<Informer*> informers;
    for (const auto& informer : ScopeOf(*entry)->informers)
        informers.push_back(informer.get());
    co_return informers;
}

StatusOr<std::vector<Informer*>> Cache::ChooseInformers(const Entry& entry, const Scope& scope,
                                                        std::string_view namespace_name, bool named_read) const {
    if (!Started())
        return NotStarted();
    std::vector<Informer*> chosen;
    for (std::size_t i = 0; i < scope.informers.size(); ++i)
        if (scope.Serves(i, namespace_name))
            chosen.push_back(scope.informers[i].get());
    // No namespace cached yet (a namespace selector that selects none): a list of every
    // namespace is empty.
    if (chosen.empty() && namespace_name.empty() && !named_read)
        return chosen;
    if (chosen.empty() || (named_read && chosen.size() > 1)) {
        std::string held;
        for (const std::string& ns : scope.namespaces)
            held += (held.empty() ? "\"" : ", \"") + ns + "\"";
        return BadRequestError("the cache holds " + entry.mapping.resource.resource + " of namespaces " + held +
                               " only; namespace \"" + std::string(namespace_name) + "\" is not cached");
    }
    return chosen;
}

Task<StatusOr<Cache::SyncedScope>> Cache::SyncedStores(Context& ctx, Entry& entry, std::string_view namespace_name,
                                                       bool named_read) {
    SyncedScope synced{ScopeOf(entry), {}, {}};
    CTRL_CO_ASSIGN_OR_RETURN(std::vector<Informer*> chosen,
                             ChooseInformers(entry, *synced.scope, namespace_name, named_read));
    for (Informer* informer : chosen) {
        // Once synced, a read costs no wait (no coroutine frames on the hot path).
        if (!informer->HasSynced())
            CTRL_CO_RETURN_IF_ERROR(co_await informer->WaitForSync(ctx));
        synced.stores.push_back(&informer->GetStore());
        synced.informers.push_back(informer);
    }
    co_return synced;
}

Task<Status> Cache::WaitForCacheSync(Context ctx) {
    std::vector<Informer*> informers;
    {
        std::lock_guard lock(mu_);
        if (!started_ctx_)
            co_return NotStarted();
        if (namespace_informer_)
            informers.push_back(namespace_informer_.get());
        for (auto& [key, entry] : entries_)
            for (const auto& informer : entry->scope->informers)
                informers.push_back(informer.get());
    }
    std::string failures;
    for (Informer* informer : informers) {
        if (Status synced = co_await informer->WaitForSync(ctx); !synced.Ok())
            failures += "\n  " + synced.Message();
    }
    if (failures.empty())
        co_return OkStatus();
    co_return TimeoutError("caches did not sync:" + failures);
}

Task<Status> Cache::IndexField(Context ctx, GroupVersionKind gvk, std::string field, FieldExtractor extract) {
    CTRL_CO_ASSIGN_OR_RETURN(Entry * entry, co_await EntryFor(ctx, gvk, /*metadata_only=*/false, /*for_read=*/false));
    const std::string name = internal::FieldIndexName(field);
    std::lock_guard lock(mu_);
    for (const auto& informer : entry->scope->informers)
        CTRL_CO_RETURN_IF_ERROR(informer->AddIndex(name, extract));
    entry->indexes.emplace_back(name, IndexFunc(std::move(extract)));
    co_return OkStatus();
}

Task<StatusOr<CachedObject>> Cache::Find(Context& ctx, const GroupVersionKind& gvk, bool metadata_only,
                                         const ObjectKey& key) {
    if (std::optional<StatusOr<CachedObject>> now = FindNow(gvk, metadata_only, key))
        co_return std::move(*now);
    CTRL_CO_ASSIGN_OR_RETURN(Entry * entry, co_await EntryFor(ctx, gvk, metadata_only, /*for_read=*/true));
    CTRL_CO_RETURN_IF_ERROR(client::CheckNamedKey(entry->mapping, key, "get"));
    const std::string namespace_name = entry->mapping.Namespaced() ? key.namespace_name : std::string();
    CTRL_CO_ASSIGN_OR_RETURN(SyncedScope synced,
                             co_await SyncedStores(ctx, *entry, namespace_name, /*named_read=*/true));
    CTRL_CO_RETURN_IF_ERROR(co_await AwaitWrites(ctx, *entry, synced.informers, namespace_name, &key.name));
    for (const Store* store : synced.stores)
        if (CachedObject cached = store->Get(namespace_name, key.name))
            co_return cached;
    co_return internal::ObjectNotFound(entry->mapping, key.name);
}

Task<StatusOr<std::vector<CachedObject>>> Cache::Select(Context& ctx, const GroupVersionKind& gvk, bool metadata_only,
                                                        client::ListOptions& options, std::string& resource_version) {
    CTRL_CO_ASSIGN_OR_RETURN(Entry * entry, co_await EntryFor(ctx, gvk, metadata_only, /*for_read=*/true));
    if (options.label_selector.IsNothing())
        co_return std::vector<CachedObject>();
    if (!entry->mapping.Namespaced())
        options.namespace_name.clear();
    CTRL_CO_ASSIGN_OR_RETURN(SyncedScope synced,
                             co_await SyncedStores(ctx, *entry, options.namespace_name, /*named_read=*/false));
    CTRL_CO_RETURN_IF_ERROR(co_await AwaitWrites(ctx, *entry, synced.informers, options.namespace_name, nullptr));
    if (synced.stores.size() == 1)
        resource_version = synced.stores.front()->LastSyncResourceVersion();
    co_return internal::SelectObjects(synced.stores, options);
}

}  // namespace ctrl::cache
