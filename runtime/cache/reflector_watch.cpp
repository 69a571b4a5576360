// The reflector's watch: opening a watch (or a watch-list's stream) from a resourceVersion with its
// own deadline, reading its events, renewing it when the server ends it, and falling back from
// protobuf to JSON for good when a protobuf event cannot be read.

#include <chrono>
#include <random>
#include <string>
#include <utility>

#include "ctrl/cache/internal/reflector_state.hpp"
#include "ctrl/cache/reflector.hpp"
#include "ctrl/rest/watch_decoder.hpp"

namespace ctrl::cache {

namespace {

using Clock = std::chrono::steady_clock;

// A watch that ends cleanly this soon without a single event is a failure (client-go's "very short
// watch"): renewing it at once could spin.
constexpr auto kShortWatch = std::chrono::seconds(1);

}  // namespace

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
    // The server ends the watch after timeout_seconds. Should it not: a stream that goes on sending
    // is ended here at its first event options_.watch_overrun later (ReadEvent), a silent one (a
    // half-open connection)
    // by the transport's idle timeout. Not a Context deadline: one would be pending for as long as
    // the watch runs, which is always, and keep the deadline thread alive in an idle operator.
    Context watch_ctx = Context::WithCancel(ctx);
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
    state.watch_ends = state.watch_started + std::chrono::seconds(timeout_seconds) + options_.watch_overrun;
    state.watch_events = 0;
    co_return OkStatus();
}

Task<Status> Reflector::ReadEvent(Context& ctx, State& state) {
    // A streamed list's objects go straight into the store's compact form (no Object each),
    // unless the target is a shard: each object's uid is checked first (InShard).
    rest::WatchObjectSink* const sink =
        state.phase == Phase::kStreaming && state.replacement && target_.shard.SelectsEverything()
            ? state.replacement->Sink()
            : nullptr;
    StatusOr<std::optional<rest::WatchEvent>> next = co_await state.stream->Next(*state.watch_ctx, sink);
    if (!next.Ok() && IsBadRequest(next.GetStatus()) && state.stream->Protobuf())
        WatchInJson(state, next.GetStatus());
    if (!next.Ok()) {
        state.CloseWatch();
        state.log.V(4).Info("watch closed", "reason", ctx.Err().Ok() ? "it failed" : "stopping", "events",
                            state.watch_events);
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
    Status applied = ApplyEvent(state, std::move(**next));
    if (applied.Ok() && Clock::now() > state.watch_ends) {
        state.CloseWatch();
        state.log.V(4).Info("watch closed", "reason", "the server did not end it at timeoutSeconds", "events",
                            state.watch_events);
    }
    co_return applied;  // renewed from the last resourceVersion
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
