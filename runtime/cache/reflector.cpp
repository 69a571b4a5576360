#include "ctrl/cache/reflector.hpp"

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/cache/internal/backoff.hpp"
#include "ctrl/cache/internal/informer_faults.hpp"
#include "ctrl/cache/internal/processor.hpp"
#include "ctrl/cache/internal/reflector_metrics.hpp"
#include "ctrl/cache/internal/reflector_state.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/rest/watch_decoder.hpp"

namespace ctrl::cache {

namespace {

using Clock = std::chrono::steady_clock;

// The reflector's logger: the context's, named "cache", with what it lists and watches.
log::Logger LoggerFor(const Context& ctx, const ListWatchTarget& target) {
    std::string resource = target.resource.resource + "." + target.resource.version;
    if (!target.resource.group.empty())
        resource += "." + target.resource.group;
    log::Logger logger = log::FromContext(ctx).WithName("cache").WithValues("resource", resource);
    if (target.namespaced && !target.namespace_name.empty())
        logger = logger.WithValues("namespace", target.namespace_name);
    if (target.metadata_only)
        logger = logger.WithValues("metadataOnly", true);
    return logger;
}

}  // namespace

Reflector::Reflector(rest::RestClient& client, ListWatchTarget target, Store& store, internal::Processor& processor,
                     ReflectorOptions options, const std::string& kind, metrics::Registry& registry)
    : client_(client),
      target_(std::move(target)),
      store_(store),
      options_(std::move(options)),
      faults_(std::make_shared<const internal::InformerFaults>(kind, registry)),
      metrics_(std::make_shared<const internal::ReflectorMetrics>(
          kind, target_.namespaced ? target_.namespace_name : std::string(), registry)),
      processor_(processor),
      versions_(store) {}

Reflector::Reflector(rest::RestClient& client, ListWatchTarget target, Store& store, internal::Processor& processor,
                     ReflectorOptions options)
    : Reflector(client, target, store, processor, std::move(options), target.resource.String(),
                metrics::DefaultRegistry()) {}

Reflector::~Reflector() = default;

Task<void> Reflector::Run(Context ctx) {
    State state(options_);
    state.log = LoggerFor(ctx, target_);
    state.log.V(1).Info("starting");
    while (ctx.Err().Ok()) {
        Status status = co_await Step(ctx, state);
        if (status.Ok())
            continue;
        if (!ctx.Err().Ok())
            break;
        Fail(status);
        if (IsNotFound(status) && options_.stop_when_not_served) {
            StopNotServed(state, status);
            break;
        }
        if (IsGone(status)) {
            state.log.V(1).Info("resourceVersion expired: relisting", "err", status, "expiredInARow",
                                state.gone_in_a_row + 1);
            // Too old a resourceVersion or an expired continue token: only a fresh list helps. The
            // first time at once; if the list itself keeps expiring, with backoff.
            state.Relist();
            if (state.gone_in_a_row++ == 0)
                continue;
        } else if (state.phase == Phase::kStreaming) {
            FallBackToPages(state, status);
            continue;  // at once, as client-go: making progress matters more than the stream
        } else if (state.phase == Phase::kListing) {
            state.log.Error(status, "list failed: listing again after a backoff");
            state.Relist();  // the next attempt starts the list over
        } else if (IsBadRequest(status)) {
            // The stream held what the decoder cannot read (an unknown event type, broken JSON): a
            // server or proxy fault worth an error line, not a routine reconnect.
            state.log.Error(status, "watch sent an event that cannot be read: watching again after a backoff",
                            "resourceVersion", state.resource_version);
            state.CloseWatch();
        } else {
            state.log.V(1).Info("watch failed: watching again after a backoff", "err", status, "resourceVersion",
                                state.resource_version);
            state.CloseWatch();  // the next attempt watches again from the same resourceVersion
        }
        // Named first: GCC 12 mishandles temporaries built inside a co_await expression.
        const auto wait = state.backoff.Next();
        state.log.V(2).Info("backing off", "wait", wait);
        Status slept = co_await SleepFor(ctx, wait);
        if (!slept.Ok())
            break;
    }
    state.CloseWatch();
    state.log.V(1).Info("stopped");
}

Task<Status> Reflector::Step(Context& ctx, State& state) {
    if (target_.shard.SelectsNothing())
        co_return co_await HoldNothing(ctx, state);
    if (state.phase == Phase::kListing) {
        if (options_.watch_list && !state.watch_list_refused && !state.pages_next && !state.replacement)
            co_return co_await OpenWatchList(ctx, state);
        co_return co_await ListPage(ctx, state);
    }
    if (!state.stream)
        co_return co_await OpenWatch(ctx, state);
    co_return co_await ReadEvent(ctx, state);
}

Task<Status> Reflector::ListPage(Context& ctx, State& state) {
    if (!state.replacement) {
        state.replacement.emplace(store_.BeginReplace());
        state.continue_token.clear();
        state.list_started = Clock::now();
        state.list_pages = 0;
        state.pages_next = false;
        state.log.V(2).Info("listing", "reason",
                            !HasSynced()              ? "initial list"
                            : state.gone_in_a_row > 0 ? "resourceVersion expired"
                                                      : "the previous list failed",
                            "pageSize", options_.page_size);
    }
    StatusOr<rest::HttpRequest> request =
        BuildListRequest(target_, options_.page_size, state.continue_token, options_.request_timeout);
    if (!request.Ok())
        co_return request.GetStatus().Annotate("listing " + target_.Describe());
    StatusOr<rest::HttpResponse> response = co_await client_.Do(ctx, std::move(request).Value());
    if (!response.Ok())
        co_return response.GetStatus().Annotate("listing " + target_.Describe());
    StatusOr<ObjectList> list = ObjectList::Parse(response->body);
    if (!list.Ok())
        co_return list.GetStatus().Annotate("decoding the list of " + target_.Describe());
    // Items come without apiVersion and kind; the cache hands out complete objects.
    (void)list->FillItemTypeMeta();
    {
        std::lock_guard lock(mu_);
        ++stats_.list_pages;
    }
    ++state.list_pages;
    state.log.V(4).Info("list page", "page", state.list_pages, "items", list->Items().size(), "more",
                        !list->Continue().empty());
    for (Object& item : list->Items()) {
        if (!InShard(item, state))
            continue;
        if (Status added = state.replacement->Add(std::move(item)); !added.Ok())
            faults_->TransformFailed(added.Annotate("listing " + target_.Describe()));
    }
    if (!list->Continue().empty()) {
        state.continue_token = std::string(list->Continue());
        co_return OkStatus();
    }
    state.resource_version = std::string(list->ResourceVersion());
    co_return ApplyList(state);
}

Status Reflector::ApplyList(State& state) {
    const bool initial = !HasSynced();
    {
        internal::Processor::Batch batch = processor_.Begin();
        StatusOr<StoreReplaceResult> result = store_.Replace(std::move(*state.replacement), state.resource_version);
        state.replacement.reset();
        if (!result.Ok())
            return result.GetStatus().Annotate("replacing the cache of " + target_.Describe());
        batch.Replaced(*result, initial);
    }  // the batch's end hands the changes to the handlers
    // The gauges, the counters and the resourceVersion first: a reader woken by the sync sees them
    // as the store is.
    metrics_->Listed(initial, state.gone_in_a_row > 0);
    metrics_->Stored(store_.Size(), store_.EncodedBytes(), store_.Evictions());
    SetResourceVersion(state.resource_version);
    {
        std::lock_guard lock(mu_);
        ++stats_.lists;
        if (state.phase == Phase::kStreaming)
            ++stats_.watch_lists;
        last_error_ = OkStatus();
    }
    if (initial) {
        synced_.store(true, std::memory_order_release);
        synced_event_.Notify();
    }
    state.log.V(1).Info(initial ? "synced" : "relisted", "objects", store_.Size(), "how",
                        state.phase == Phase::kStreaming ? "watch-list" : "pages", "pages", state.list_pages, "took",
                        Clock::now() - state.list_started, "resourceVersion", state.resource_version);
    state.phase = Phase::kWatching;
    state.backoff.Reset();
    state.gone_in_a_row = 0;
    return OkStatus();
}

Status Reflector::ApplyEvent(State& state, rest::WatchEvent event) {
    using Type = rest::WatchEvent::Type;
    if (event.type == Type::kError)
        return rest::StatusFromWatchEvent(event).Annotate("watching " + target_.Describe());
    std::string resource_version(event.object.ResourceVersion());
    if (auto v = state.log.V(6); v.Enabled()) {
        static constexpr const char* kTypes[] = {"ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"};  // Type's order
        const std::string_view ns = event.object.Namespace();
        v.Info("event", "type", kTypes[static_cast<int>(event.type)], "object",
               ns.empty() ? std::string(event.object.Name()) : std::string(ns) + "/" + std::string(event.object.Name()),
               "resourceVersion", resource_version);
    }
    ++state.watch_events;
    state.backoff.Reset();
    state.gone_in_a_row = 0;
    Status applied;
    if (event.type != Type::kBookmark && !InShard(event.object, state)) {
        // Not this reflector's (the server ignored shardSelector): only its resourceVersion counts.
    } else if (event.type == Type::kBookmark) {
        std::lock_guard lock(mu_);
        ++stats_.bookmarks;
    } else if (event.type == Type::kDeleted) {
        applied = ApplyDeleted(std::move(event.object));
    } else {
        applied = ApplyAddedOrModified(std::move(event.object));
    }
    if (!applied.Ok())
        faults_->TransformFailed(applied.Annotate("watching " + target_.Describe()));
    if (event.type != Type::kBookmark) {
        metrics_->Stored(store_.Size(), store_.EncodedBytes(), store_.Evictions());
        std::lock_guard lock(mu_);
        ++stats_.events;
    }
    // An object the transform refused is left out (logged and counted above); the watch goes on.
    if (!applied.Ok()) {
        std::lock_guard lock(mu_);
        last_error_ = applied;
    }
    if (!resource_version.empty())
        state.resource_version = resource_version;
    SetResourceVersion(std::move(resource_version));
    return OkStatus();
}

Status Reflector::ApplyDeleted(Object object) {
    internal::Processor::Batch batch = processor_.Begin();
    const CachedObject previous = store_.Delete(object.Namespace(), object.Name());
    Status applied = store_.ApplyTransform(object);
    // An object a bounded store evicted is deleted too: the event's final state is all there is.
    if ((previous || store_.HasEvicted()) && batch.HasHandlers()) {
        // A final state the transform refuses is replaced by the last one held.
        if (applied.Ok())
            batch.Deleted(std::make_shared<const Object>(std::move(object)), false);
        else if (previous)
            batch.Deleted(previous, /*final_state_unknown=*/true);
    }
    return applied;
}

Status Reflector::ApplyAddedOrModified(Object object) {
    internal::Processor::Batch batch = processor_.Begin();
    const std::string namespace_name(object.Namespace());
    const std::string name(object.Name());
    StatusOr<StoreChange> change = store_.Update(std::move(object));
    if (change.Ok()) {
        batch.Changed(*change);
    } else if (const CachedObject stale = store_.Delete(namespace_name, name); stale && batch.HasHandlers()) {
        // The new state could not be stored: the old one must not stay as if current.
        batch.Deleted(stale, /*final_state_unknown=*/true);
    }
    return change.GetStatus();
}

void Reflector::StopNotServed(State& state, const Status& status) {
    Status reason = NotFoundError(target_.Describe() + " is not served any more (the server answered 404 Not Found: " +
                                  status.Message() + "); the reflector stopped");
    state.log.Info("the server does not serve the resource any more: stopping", "err", status);
    {
        std::lock_guard lock(mu_);
        stop_reason_ = std::move(reason);
    }
    synced_event_.Notify();  // a sync wait answers at once (WaitForSync)
}

void Reflector::Clear() {
    (void)store_.Replace(std::vector<Object>{}, "");
    metrics_->Stored(0, 0);
    versions_.ReleaseAll();
}

Status Reflector::StopReason() const {
    std::lock_guard lock(mu_);
    return stop_reason_;
}

Task<Status> Reflector::WaitForSync(Context ctx) const {
    Status synced = co_await synced_event_.Wait(std::move(ctx));
    if (synced.Ok() && !HasSynced())
        co_return StopReason();
    if (synced.Ok())
        co_return synced;
    const Status last = LastError();
    std::string message = target_.Describe() + " did not sync";
    message += last.Ok() ? ": no list answered yet" : ": " + last.ToString();
    co_return IsCancelled(synced) ? CancelledError(std::move(message)) : TimeoutError(std::move(message));
}

void Reflector::SetResourceVersion(std::string resource_version) {
    if (resource_version.empty())
        return;
    versions_.Advance(resource_version);
    std::lock_guard lock(mu_);
    resource_version_ = std::move(resource_version);
}

void Reflector::Fail(Status status) {
    std::lock_guard lock(mu_);
    ++stats_.failures;
    if (IsGone(status))
        ++stats_.expired;
    if (IsNotFound(status))
        ++stats_.not_found;
    last_error_ = std::move(status);
}

Status Reflector::LastError() const {
    std::lock_guard lock(mu_);
    return last_error_;
}

std::string Reflector::LastResourceVersion() const {
    std::lock_guard lock(mu_);
    return resource_version_;
}

ReflectorStats Reflector::Stats() const {
    std::lock_guard lock(mu_);
    return stats_;
}

}  // namespace ctrl::cache
