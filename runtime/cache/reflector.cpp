#include "ctrl/cache/reflector.hpp"

#include <random>
#include <utility>

#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>

#include "ctrl/cache/internal/backoff.hpp"
#include "ctrl/cache/internal/informer_faults.hpp"
#include "ctrl/cache/internal/listener.hpp"
#include "ctrl/cache/internal/reflector_metrics.hpp"
#include "ctrl/cache/internal/reflector_state.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/rest/watch_decoder.hpp"

namespace ctrl::cache {

namespace {

using Clock = std::chrono::steady_clock;

// A watch that ends cleanly this soon without a single event is a failure (client-go's "very short
// watch"): renewing it at once could spin.
constexpr auto kShortWatch = std::chrono::seconds(1);

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

bool EventHandlerRegistration::HasSynced() const {
    return listener_ && listener_->HasSynced();
}

Reflector::Reflector(rest::RestClient& client, ListWatchTarget target, Store& store, ReflectorOptions options,
                     const std::string& kind, metrics::Registry& registry)
    : client_(client),
      target_(std::move(target)),
      store_(store),
      options_(std::move(options)),
      faults_(std::make_shared<const internal::InformerFaults>(kind, registry)),
      metrics_(std::make_shared<const internal::ReflectorMetrics>(kind, registry)),
      listeners_(std::make_shared<const Listeners>()) {}

Reflector::Reflector(rest::RestClient& client, ListWatchTarget target, Store& store, ReflectorOptions options)
    : Reflector(client, target, store, std::move(options), target.resource.String(), metrics::DefaultRegistry()) {}

Reflector::Reflector(rest::RestClient& client, ListWatchTarget target, Store& store)
    : Reflector(client, std::move(target), store, ReflectorOptions{}) {}

Reflector::~Reflector() {
    // A registration the caller still holds keeps its listener; stopping each lets go of its handler.
    for (const auto& listener : *listeners_)
        listener->Stop();
}

Task<void> Reflector::Run(Context ctx) {
    {
        auto executor = co_await boost::asio::this_coro::executor;
        std::lock_guard lock(mu_);
        executor_ = std::move(executor);
    }
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
    std::shared_ptr<const Listeners> listeners;
    bool initial = false;
    {
        std::lock_guard lock(dispatch_mu_);
        StatusOr<StoreReplaceResult> result = store_.Replace(std::move(*state.replacement), state.resource_version);
        state.replacement.reset();
        if (!result.Ok())
            return result.GetStatus().Annotate("replacing the cache of " + target_.Describe());
        initial = !listed_;
        listed_ = true;
        QueueReplaceLocked(*result, initial);
        listeners = listeners_;
    }
    Deliver(*listeners);
    if (initial) {
        synced_.store(true, std::memory_order_release);
        synced_event_.Notify();
    }
    state.log.V(1).Info(initial ? "synced" : "relisted", "objects", store_.Size(), "how",
                        state.phase == Phase::kStreaming ? "watch-list" : "pages", "pages", state.list_pages, "took",
                        Clock::now() - state.list_started, "resourceVersion", state.resource_version);
    SetResourceVersion(state.resource_version);
    metrics_->Listed(initial, state.gone_in_a_row > 0);
    {
        std::lock_guard lock(mu_);
        ++stats_.lists;
        if (state.phase == Phase::kStreaming)
            ++stats_.watch_lists;
        last_error_ = OkStatus();
    }
    state.phase = Phase::kWatching;
    state.backoff.Reset();
    state.gone_in_a_row = 0;
    return OkStatus();
}

void Reflector::QueueReplaceLocked(const StoreReplaceResult& result, bool initial) {
    if (!listeners_->empty()) {
        for (const StoreChange& change : result.changes)
            QueueChangeLocked(change, initial);
        for (const CachedObject& gone : result.deleted)
            QueueDeleteLocked(gone.Shared(), /*final_state_unknown=*/true);
    }
    if (initial)
        for (const auto& listener : *listeners_)
            listener->QueueSynced();
}

void Reflector::QueueChangeLocked(const StoreChange& change, bool is_initial_list) {
    if (listeners_->empty())
        return;
    const std::shared_ptr<const Object> current = change.current.Shared();
    if (change.previous) {
        const std::shared_ptr<const Object> previous = change.previous.Shared();
        for (const auto& listener : *listeners_)
            listener->QueueUpdate(previous, current);
    } else {
        for (const auto& listener : *listeners_)
            listener->QueueAdd(current, is_initial_list);
    }
}

void Reflector::QueueDeleteLocked(const std::shared_ptr<const Object>& last, bool final_state_unknown) {
    for (const auto& listener : *listeners_)
        listener->QueueDelete(last, final_state_unknown);
}

void Reflector::Deliver(const Listeners& listeners) {
    for (const auto& listener : listeners)
        listener->Deliver();
}

Task<Status> Reflector::OpenWatch(Context& ctx, State& state) {
    const int64_t timeout_seconds = WatchTimeoutSeconds();
    StatusOr<rest::HttpRequest> request =
        BuildWatchRequest(WatchTarget(state), state.resource_version, timeout_seconds, options_.request_timeout);
    if (!request.Ok())
        co_return request.GetStatus().Annotate("watching " + target_.Describe());
    Status started = co_await StartStream(ctx, state, std::move(request).Value(), timeout_seconds);
    if (!started.Ok())
        co_return started.Annotate("watching " + target_.Describe() + " from resourceVersion " +
                                   state.resource_version);
    state.log.V(4).Info("watching", "resourceVersion", state.resource_version, "timeoutSeconds", timeout_seconds);
    co_return OkStatus();
}

Task<Status> Reflector::StartStream(Context& ctx, State& state, rest::HttpRequest request, int64_t timeout_seconds) {
    // The server ends the watch after timeout_seconds; should it not (a half-open connection), the
    // watch's own deadline shortly after ends it here.
    Context watch_ctx = Context::WithTimeout(ctx, std::chrono::seconds(timeout_seconds + 30));
    const rest::WatchStreamOptions stream_options = StreamOptions();
    StatusOr<std::unique_ptr<rest::WatchStream>> stream =
        co_await client_.Watch(watch_ctx, std::move(request), stream_options);
    {
        std::lock_guard lock(mu_);
        ++stats_.watches;
    }
    if (!stream.Ok())
        co_return stream.GetStatus();
    state.stream = std::move(stream).Value();
    CountProtobuf(*state.stream);
    state.watch_ctx = std::move(watch_ctx);
    state.watch_started = Clock::now();
    state.watch_events = 0;
    co_return OkStatus();
}

Task<Status> Reflector::ReadEvent(Context& ctx, State& state) {
    // A streamed list's objects go straight into the store's compact form (no Object each).
    rest::WatchObjectSink* const sink =
        state.phase == Phase::kStreaming && state.replacement ? state.replacement->Sink() : nullptr;
    StatusOr<std::optional<rest::WatchEvent>> next = co_await state.stream->Next(*state.watch_ctx, sink);
    if (!next.Ok() && IsBadRequest(next.GetStatus()) && state.stream->Protobuf())
        WatchInJson(state, next.GetStatus());
    if (!next.Ok()) {
        const bool own_deadline = ctx.Err().Ok() && !state.watch_ctx->Err().Ok();
        state.CloseWatch();
        state.log.V(4).Info("watch closed", "reason",
                            own_deadline     ? "its deadline passed"
                            : ctx.Err().Ok() ? "it failed"
                                             : "stopping",
                            "events", state.watch_events);
        if (own_deadline && state.phase == Phase::kWatching)
            co_return OkStatus();  // our deadline, not a failure: renew
        co_return next.GetStatus().Annotate("watching " + target_.Describe());
    }
    if (!next->has_value() && state.phase == Phase::kStreaming) {
        state.CloseWatch();
        co_return UnavailableError("the watch-list of " + target_.Describe() +
                                   " ended before the bookmark that ends its initial events");
    }
    if (!next->has_value()) {
        const bool short_watch = state.watch_events == 0 && Clock::now() - state.watch_started < kShortWatch;
        state.CloseWatch();
        state.log.V(4).Info("watch closed", "reason",
                            short_watch ? "the server ended it at once" : "the server ended it (timeoutSeconds)",
                            "events", state.watch_events);
        if (short_watch)
            co_return UnavailableError("the watch of " + target_.Describe() + " ended at once without an event");
        co_return OkStatus();  // the server's timeoutSeconds: renew from the last resourceVersion
    }
    if (state.phase == Phase::kStreaming)
        co_return ApplyInitialEvent(state, std::move(**next));
    co_return ApplyEvent(state, std::move(**next));
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
    std::shared_ptr<const Listeners> listeners;
    if (event.type == Type::kBookmark) {
        std::lock_guard lock(mu_);
        ++stats_.bookmarks;
    } else if (event.type == Type::kDeleted) {
        std::lock_guard lock(dispatch_mu_);
        const CachedObject previous = store_.Delete(event.object.Namespace(), event.object.Name());
        applied = store_.ApplyTransform(event.object);
        if (previous && !listeners_->empty()) {
            // A final state the transform refuses is replaced by the last one held.
            if (applied.Ok())
                QueueDeleteLocked(std::make_shared<const Object>(std::move(event.object)), false);
            else
                QueueDeleteLocked(previous.Shared(), /*final_state_unknown=*/true);
        }
        listeners = listeners_;
    } else {
        std::lock_guard lock(dispatch_mu_);
        const std::string namespace_name(event.object.Namespace());
        const std::string name(event.object.Name());
        StatusOr<StoreChange> change = store_.Update(std::move(event.object));
        applied = change.GetStatus();
        if (change.Ok()) {
            QueueChangeLocked(*change, /*is_initial_list=*/false);
        } else if (const CachedObject stale = store_.Delete(namespace_name, name); stale && !listeners_->empty()) {
            // The new state could not be stored: the old one must not stay as if current.
            QueueDeleteLocked(stale.Shared(), /*final_state_unknown=*/true);
        }
        listeners = listeners_;
    }
    if (listeners)
        Deliver(*listeners);
    if (!applied.Ok())
        faults_->TransformFailed(applied.Annotate("watching " + target_.Describe()));
    if (event.type != Type::kBookmark) {
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

EventHandlerRegistration Reflector::AddEventHandler(std::shared_ptr<EventHandler> handler) {
    auto listener = std::make_shared<internal::Listener>(std::move(handler), faults_);
    bool replayed = false;
    {
        std::lock_guard lock(dispatch_mu_);
        if (listed_) {
            for (const CachedObject& object : store_.List())
                listener->QueueAdd(object.Shared(), /*is_initial_list=*/true);
            listener->QueueSynced();
            replayed = true;
        }
        auto next = std::make_shared<Listeners>(*listeners_);
        next->push_back(listener);
        listeners_ = std::move(next);
    }
    if (replayed) {
        // On the informer's executor, never on the caller's thread (which may be a handler's).
        std::optional<boost::asio::any_io_executor> executor;
        {
            std::lock_guard lock(mu_);
            executor = executor_;
        }
        if (executor)
            boost::asio::post(*executor, [listener] { listener->Deliver(); });
    }
    return EventHandlerRegistration(std::move(listener));
}

Status Reflector::RemoveEventHandler(const EventHandlerRegistration& registration) {
    const std::shared_ptr<internal::Listener>& listener = registration.listener_;
    {
        std::lock_guard lock(dispatch_mu_);
        auto next = std::make_shared<Listeners>(*listeners_);
        const auto removed = std::erase(*next, listener);
        if (!listener || removed == 0)
            return NotFoundError("the event handler is not registered with the informer of " + target_.Describe());
        listeners_ = std::move(next);
    }
    listener->Stop();
    return OkStatus();
}

void Reflector::Resync() {
    std::shared_ptr<const Listeners> listeners;
    {
        std::lock_guard lock(dispatch_mu_);
        if (!listed_ || listeners_->empty())
            return;
        for (const CachedObject& object : store_.List()) {
            const std::shared_ptr<const Object> shared = object.Shared();
            for (const auto& listener : *listeners_)
                listener->QueueUpdate(shared, shared);
        }
        listeners = listeners_;
    }
    Deliver(*listeners);
}

Task<Status> Reflector::WaitForSync(Context ctx) const {
    Status synced = co_await synced_event_.Wait(std::move(ctx));
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
    std::lock_guard lock(mu_);
    resource_version_ = std::move(resource_version);
}

void Reflector::Fail(Status status) {
    std::lock_guard lock(mu_);
    ++stats_.failures;
    if (IsGone(status))
        ++stats_.expired;
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

const ListWatchTarget& Reflector::WatchTarget(const State& state) const {
    return state.json_target ? *state.json_target : target_;
}

void Reflector::WatchInJson(State& state, const Status& status) {
    state.log.Error(status,
                    "a protobuf watch event cannot be read (a kind or field this version of ctrl does not "
                    "know, or broken bytes): watching in JSON from now on");
    state.json_target = target_;
    state.json_target->protobuf = false;
    std::lock_guard lock(mu_);
    ++stats_.protobuf_fallbacks;
}

void Reflector::CountProtobuf(const rest::WatchStream& stream) {
    if (!stream.Protobuf())
        return;
    std::lock_guard lock(mu_);
    ++stats_.protobuf_watches;
}

rest::WatchStreamOptions Reflector::StreamOptions() const {
    rest::WatchStreamOptions options;
    // The store would strip them: the stream does not build them (half of a typical object).
    options.decoder.drop_managed_fields = store_.DropsManagedFields();
    return options;
}

int64_t Reflector::WatchTimeoutSeconds() {
    thread_local std::mt19937_64 random{std::random_device{}()};
    const int64_t min = std::max<int64_t>(1, options_.min_watch_timeout.count());
    std::uniform_int_distribution<int64_t> pick(min, 2 * min - 1);
    return min == 1 ? 1 : pick(random);
}

}  // namespace ctrl::cache
