// The patch load of cache_sync_bench (RunPatchLoad in cache_sync_probe.hpp).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/cache/list_watch_target.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "test/bench/annotation_patch_load.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/cache_sync_probe.hpp"
#include "test/support/workload.hpp"

namespace ctrl::bench {
namespace {

using namespace std::chrono_literals;

// When each patch of the load (by sequence number) was seen as an event by the cache and by the
// raw watch: nanoseconds on the load's clock, -1 for "not yet". Written from two threads, read after.
struct PatchTimes {
    PatchTimes() {
        for (auto* column : {&seen, &seen_raw}) {
            *column = std::make_unique<std::atomic<int64_t>[]>(AnnotationPatchLoad::kMaxPatches);
            for (int i = 0; i < AnnotationPatchLoad::kMaxPatches; ++i)
                (*column)[i] = -1;
        }
    }
    int64_t Now() const { return load.Now(); }
    // Notes the event of the patch whose sequence number object carries.
    void See(std::atomic<int64_t>* column, const Object& object, int64_t at) {
        const int seq = load.SeqOf(object);
        int64_t unset = -1;
        if (seq >= 0)
            column[seq].compare_exchange_strong(unset, at);
    }

    AnnotationPatchLoad load;
    std::unique_ptr<std::atomic<int64_t>[]> seen, seen_raw;
    std::atomic<int64_t> adds{0};
    std::atomic<int64_t> updates{0};     // every OnUpdate since the load started
    std::atomic<int64_t> last_event{0};  // when the last one came
};

// Watches every pod from resource_version and notes each patch's event in times.seen_raw until ctx
// ends. opened: set once the response headers came.
Task<void> RawWatch(Context ctx, rest::RestClient& client, std::string resource_version, PatchTimes& times,
                    std::atomic<bool>& opened) {
    const cache::ListWatchTarget target{.resource = {"", "v1", "pods"}, .namespaced = true};
    StatusOr<rest::HttpRequest> request = cache::BuildWatchRequest(target, resource_version, 3600, 60s);
    if (!request.Ok())
        co_return;
    rest::HttpRequest watch = std::move(request).Value();
    StatusOr<std::unique_ptr<rest::WatchStream>> stream = co_await client.Watch(ctx, std::move(watch));
    if (!stream.Ok()) {
        std::fprintf(stderr, "cache_sync_bench: raw watch: %s\n", stream.GetStatus().ToString().c_str());
        co_return;
    }
    opened = true;
    for (;;) {
        StatusOr<std::optional<rest::WatchEvent>> next = co_await (*stream)->Next(ctx);
        if (!ctx.Cancelled() && (!next.Ok() || !next->has_value()))
            std::fprintf(stderr, "cache_sync_bench: the raw watch ended early: %s\n",
                         next.Ok() ? "the server closed it" : next.GetStatus().ToString().c_str());
        if (!next.Ok() || !next->has_value())
            co_return;
        if ((*next)->type == rest::WatchEvent::Type::kModified)
            times.See(times.seen_raw.get(), (*next)->object, times.Now());
    }
}

}  // namespace

Status RunPatchLoad(const rest::Config& config, cache::Informer& informer, const ProbeOptions& options,
                    std::ostream& out) {
    // Shared with the handler, which stays registered until the cache stops.
    auto times = std::make_shared<PatchTimes>();
    auto handler = std::make_shared<cache::EventHandlerFuncs>();
    handler->on_add = [times](const std::shared_ptr<const Object>&, bool) { ++times->adds; };
    handler->on_update = [times](const std::shared_ptr<const Object>&, const std::shared_ptr<const Object>& now) {
        const int64_t at = times->Now();
        ++times->updates;
        times->last_event = at;
        times->See(times->seen.get(), *now, at);
    };
    informer.AddEventHandler(handler);
    // The handler first gets what the cache holds as adds: let that replay end before the load.
    const auto held = static_cast<int64_t>(informer.GetStore().Size());
    WaitUntil(60s, [&] { return times->adds.load() >= held; });

    // The raw watch: its own connection and thread.
    metrics::Registry raw_registry;
    Loop raw_loop;
    StatusOr<std::unique_ptr<rest::RestClient>> raw_client =
        rest::RestClient::New(config, raw_loop.Executor(), raw_registry);
    if (!raw_client.Ok())
        return raw_client.GetStatus().Annotate("making the raw watch's client");
    std::atomic<bool> raw_opened{false};
    std::atomic<bool> raw_ended{false};
    Context raw_ctx = Context::WithCancel(Context::Background());
    boost::asio::co_spawn(
        raw_loop.Executor(),
        RawWatch(raw_ctx, **raw_client, informer.GetStore().LastSyncResourceVersion(), *times, raw_opened),
        [&raw_ended](std::exception_ptr) { raw_ended = true; });
    WaitUntil(30s, [&] { return raw_opened.load() || raw_ended.load(); });

    const cache::ReflectorStats stats_before = informer.Stats();
    const double cpu_before = CpuSeconds();
    times->updates = 0;
    ctrl::testing::WorkloadOptions layout;
    layout.prefix = options.prefix;
    layout.namespaces = options.namespaces;
    layout.pods_per_namespace = options.pods_per_namespace;
    AnnotationPatchLoad& run = times->load;
    if (Status sent = run.Run(config, layout, options.patch_concurrency, options.patch_seconds); !sent.Ok())
        return sent;
    const int64_t load_start_ns = run.StartedAt();

    // Every answered patch must come back as an event; wait at most 30 s for the stragglers.
    auto missing = [&](const std::unique_ptr<std::atomic<int64_t>[]>& column) {
        int count = 0;
        for (int i = 0; i < run.Sent(); ++i)
            count += run.AnsweredAt(i) >= 0 && column[i] < 0 ? 1 : 0;
        return count;
    };
    WaitUntil(30s, [&] { return missing(times->seen) == 0 && (!raw_opened || missing(times->seen_raw) == 0); });
    const double cpu_seconds = CpuSeconds() - cpu_before;
    raw_ctx.Cancel();
    WaitUntil(10s, [&] { return raw_ended.load(); });
    raw_loop.Stop();

    // Delays from the answer (and from the send) to the event, in the cache and on the raw watch.
    std::vector<int64_t> answer_to_event, send_to_event, answer_to_raw;
    int early = 0;  // events the cache saw before the patch's answer reached the patcher
    for (int i = 0; i < run.Sent(); ++i) {
        const int64_t seen = times->seen[i];
        const int64_t answered = run.AnsweredAt(i);
        if (answered < 0)
            continue;
        if (seen >= 0) {
            answer_to_event.push_back(seen - answered);
            send_to_event.push_back(seen - run.SentAt(i));
            early += seen < answered ? 1 : 0;
        }
        if (times->seen_raw[i] >= 0)
            answer_to_raw.push_back(times->seen_raw[i] - answered);
    }
    // $CTRL_BENCH_PATCH_TIMES names a file for each patch's times (seconds from the load's start;
    // negative: never), to see how the delay grows under the load.
    if (const char* path = std::getenv("CTRL_BENCH_PATCH_TIMES"); path != nullptr && *path != '\0') {
        if (FILE* file = std::fopen(path, "w")) {
            std::fprintf(file, "seq sent answered seen_by_cache seen_by_raw_watch\n");
            auto at = [&](int64_t ns) { return static_cast<double>(ns - load_start_ns) / 1e9; };
            for (int i = 0; i < run.Sent(); ++i)
                std::fprintf(file, "%d %.6f %.6f %.6f %.6f\n", i, at(run.SentAt(i)), at(run.AnsweredAt(i)),
                             times->seen[i] < 0 ? -1.0 : at(times->seen[i]),
                             times->seen_raw[i] < 0 ? -1.0 : at(times->seen_raw[i]));
            std::fclose(file);
        }
    }
    const double events_seconds = static_cast<double>(times->last_event.load() - load_start_ns) / 1e9;
    out << " patches=" << run.Answered() << " patch_errors=" << run.Errors() << " patch_s=" << run.Seconds()
        << " events=" << times->updates.load() << " events_s=" << events_seconds << " missing=" << missing(times->seen)
        << " early=" << early << " answer_event_p50_ms=" << QuantileMs(answer_to_event, 0.5)
        << " answer_event_p99_ms=" << QuantileMs(answer_to_event, 0.99)
        << " send_event_p50_ms=" << QuantileMs(send_to_event, 0.5)
        << " send_event_p99_ms=" << QuantileMs(send_to_event, 0.99) << " raw_events=" << answer_to_raw.size()
        << " answer_raw_p50_ms=" << QuantileMs(answer_to_raw, 0.5)
        << " answer_raw_p99_ms=" << QuantileMs(answer_to_raw, 0.99) << " raw_missing=" << missing(times->seen_raw)
        << " load_cpu_s=" << cpu_seconds << " rewatches=" << informer.Stats().watches - stats_before.watches
        << " relists=" << informer.Stats().lists - stats_before.lists
        << " watch_failures=" << informer.Stats().failures - stats_before.failures;
    if (!informer.LastError().Ok())
        std::fprintf(stderr, "cache_sync_bench: the informer's last error: %s\n",
                     informer.LastError().ToString().c_str());
    if (run.Errors() > 0)
        std::fprintf(stderr, "cache_sync_bench: %d patches failed; the first: %s\n", run.Errors(),
                     run.FirstError().c_str());
    return OkStatus();
}

}  // namespace ctrl::bench
