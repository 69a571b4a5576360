// The reflector's watch-list: a list streamed as one watch (sendInitialEvents=true), its initial
// events gathered like list pages until the bookmark that ends them, the watch then going on; and
// the fallback to a paged list when the server refuses it or the stream fails first.

#include <chrono>
#include <string>
#include <utility>

#include "ctrl/cache/internal/informer_faults.hpp"
#include "ctrl/cache/internal/reflector_state.hpp"
#include "ctrl/cache/reflector.hpp"
#include "ctrl/rest/watch_decoder.hpp"

namespace ctrl::cache {

namespace {

// The annotation of the bookmark that ends a watch-list's initial events.
constexpr std::string_view kInitialEventsEnd = "k8s.io/initial-events-end";

}  // namespace

Task<Status> Reflector::OpenWatchList(Context& ctx, State& state) {
    state.replacement.emplace(store_.BeginReplace());
    state.continue_token.clear();
    state.list_started = std::chrono::steady_clock::now();
    state.list_pages = 0;
    state.phase = Phase::kStreaming;  // from here, a failure falls back to pages
    state.log.V(2).Info("listing", "reason",
                        !HasSynced()              ? "initial list"
                        : state.gone_in_a_row > 0 ? "resourceVersion expired"
                                                  : "the previous list failed",
                        "how", "watch-list");
    const int64_t timeout_seconds = WatchTimeoutSeconds();
    StatusOr<rest::HttpRequest> request =
        BuildWatchListRequest(WatchTarget(state), timeout_seconds, options_.request_timeout);
    if (!request.Ok())
        co_return request.GetStatus().Annotate("streaming the list of " + target_.Describe());
    Status started = co_await StartStream(ctx, state, std::move(request).Value(), timeout_seconds);
    if (!started.Ok()) {
        // A server that does not take watch-lists says so about their parameters: 400 or 422.
        if (IsBadRequest(started) || IsInvalid(started))
            state.watch_list_refused = true;
        co_return started.Annotate("streaming the list of " + target_.Describe());
    }
    co_return OkStatus();
}

Status Reflector::ApplyInitialEvent(State& state, rest::WatchEvent event) {
    using Type = rest::WatchEvent::Type;
    switch (event.type) {
        case Type::kError:
            return rest::StatusFromWatchEvent(event).Annotate("streaming the list of " + target_.Describe());
        case Type::kAdded:
            ++state.watch_events;
            if (!event.object_in_sink && !InShard(event.object, state))
                return OkStatus();
            if (Status added = event.object_in_sink ? state.replacement->AddFromSink()
                                                    : state.replacement->Add(std::move(event.object));
                !added.Ok())
                faults_->TransformFailed(added.Annotate("listing " + target_.Describe()));
            return OkStatus();
        case Type::kBookmark: {
            {
                std::lock_guard lock(mu_);
                ++stats_.bookmarks;
            }
            if (event.object.Annotation(kInitialEventsEnd).value_or("") != "true")
                return OkStatus();  // progress only: the initial events go on
            std::string resource_version(event.object.ResourceVersion());
            if (resource_version.empty())
                return BadRequestError("the bookmark that ends the initial events of the watch-list of " +
                                       target_.Describe() + " has no resourceVersion");
            state.resource_version = std::move(resource_version);
            return ApplyList(state);
        }
        default:
            // The server sends only ADDED events before the end bookmark; a change before it means
            // the stream is not what it claims, and a paged list is the safe answer.
            return BadRequestError(std::string("the watch-list of ") + target_.Describe() + " sent a " +
                                   (event.type == Type::kModified ? "MODIFIED" : "DELETED") +
                                   " event before the end of its initial events");
    }
}

void Reflector::FallBackToPages(State& state, const Status& status) {
    state.log.Error(status, state.watch_list_refused ? "the server refuses watch-lists: listing in pages from now on"
                                                     : "the watch-list failed: listing in pages this time");
    state.Relist();
    state.pages_next = true;
    std::lock_guard lock(mu_);
    ++stats_.watch_list_fallbacks;
}

}  // namespace ctrl::cache
