// The patch load of cache_sync_bench (RunPatchLoad in cache_sync_probe.hpp).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <latch>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/co_spawn.hpp>

#include "runtime/api/pod.hpp"
#include "runtime/cache/list_watch_target.hpp"
#include "runtime/client/client.hpp"
#include "runtime/metrics/registry.hpp"
#include "runtime/rest/rest_client.hpp"
#include "test/bench/cache_sync_probe.hpp"
#include "test/support/workload.hpp"

namespace ctrl::bench {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr std::string_view kSeqAnnotation = "bench.ctrl.dev/seq";
// Bounds the patch load whatever the server's speed.
constexpr int kMaxPatches = 200000;

// When each patch (by sequence number) was sent, answered and seen as an event by the cache and by
// the raw watch: nanoseconds since start, -1 for "not yet". Written from three threads, read after.
struct PatchTimes {
    PatchTimes() {
        for (auto* column : {&sent, &answered, &seen, &seen_raw}) {
            *column = std::make_unique<std::atomic<int64_t>[]>(kMaxPatches);
            for (int i = 0; i < kMaxPatches; ++i)
                (*column)[i] = -1;
        }
    }
    int64_t Now() const { return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count(); }
    // Notes the event of the patch whose sequence number object carries.
    void See(std::atomic<int64_t>* column, const Object& object, int64_t at) {
        const std::optional<std::string_view> seq = object.Annotation(kSeqAnnotation);
        if (!seq)
            return;
        // "<run>-<seq>": the run's nonce keeps a re-run's patches from repeating a value (a merge
        // patch that changes nothing makes no event).
        const std::size_t dash = seq->find('-');
        if (dash == std::string_view::npos || seq->substr(0, dash) != nonce)
            return;
        const int value = std::atoi(std::string(seq->substr(dash + 1)).c_str());
        int64_t unset = -1;
        if (value >= 0 && value < kMaxPatches)
            column[value].compare_exchange_strong(unset, at);
    }

    const Clock::time_point start = Clock::now();
    const std::string nonce = std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
    std::unique_ptr<std::atomic<int64_t>[]> sent, answered, seen, seen_raw;
    std::atomic<int64_t> adds{0};
    std::atomic<int64_t> updates{0};     // every OnUpdate since the load started
    std::atomic<int64_t> last_event{0};  // when the last one came
};

// What the patch workers share; they run on one thread, so plain fields are enough.
struct PatchRun {
    client::Client& client;
    const ProbeOptions& options;
    PatchTimes& times;
    Clock::time_point end;
    int next = 0;
    int ok = 0;
    int errors = 0;
    std::string first_error{};
};

// Merge-patches the seq annotation of pod seq % pods, one after another, until the end.
Task<void> PatchWorker(PatchRun& run) {
    ctrl::testing::WorkloadOptions layout;
    layout.prefix = run.options.prefix;
    const int pods = run.options.namespaces * run.options.pods_per_namespace;
    while (run.next < kMaxPatches && Clock::now() < run.end) {
        const int seq = run.next++;
        const int index = seq % pods;
        api::Pod pod;
        pod.SetNamespace(ctrl::testing::WorkloadNamespace(layout, index / run.options.pods_per_namespace));
        pod.SetName(ctrl::testing::WorkloadPodName(layout, index % run.options.pods_per_namespace));
        const std::string body = R"({"metadata":{"annotations":{")" + std::string(kSeqAnnotation) + R"(":")" +
                                 run.times.nonce + "-" + std::to_string(seq) + "\"}}}";
        const client::Patch patch = client::RawPatch(client::PatchType::kMergePatch, body);
        Context ctx = Context::WithTimeout(Context::Background(), 30s);
        run.times.sent[seq] = run.times.Now();
        Status patched = co_await run.client.Patch(std::move(ctx), pod, patch);
        if (patched.Ok()) {
            run.times.answered[seq] = run.times.Now();
            ++run.ok;
        } else if (++run.errors == 1) {
            run.first_error = patched.ToString();
        }
    }
}

// Watches every pod from resource_version and notes each patch's event in times.seen_raw until ctx
// ends. opened: set once the response headers came.
Task<void> RawWatch(rest::RestClient& client, std::string resource_version, PatchTimes& times,
                    std::atomic<bool>& opened, Context ctx) {
    const cache::ListWatchTarget target{.resource = {"", "v1", "pods"}, .namespaced = true};
    StatusOr<rest::HttpRequest> request = cache::BuildWatchRequest(target, resource_version, 3600, 60s);
    if (!request.Ok())
        co_return;
    rest::HttpRequest watch = std::move(request).Value();
    StatusOr<std::unique_ptr<rest::WatchStream>> stream = co_await client.Watch(std::move(watch), ctx);
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

// The p-th quantile (0..1) of values, in milliseconds; 0 when empty.
double QuantileMs(std::vector<int64_t> values, double p) {
    if (values.empty())
        return 0;
    const std::size_t at =
        std::min(values.size() - 1, static_cast<std::size_t>(p * static_cast<double>(values.size())));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(at), values.end());
    return static_cast<double>(values[at]) / 1e6;
}

void WaitUntil(Clock::duration timeout, const std::function<bool()>& done) {
    const auto deadline = Clock::now() + timeout;
    while (!done() && Clock::now() < deadline)
        std::this_thread::sleep_for(10ms);
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
        RawWatch(**raw_client, informer.GetStore().LastSyncResourceVersion(), *times, raw_opened, raw_ctx),
        [&raw_ended](std::exception_ptr) { raw_ended = true; });
    WaitUntil(30s, [&] { return raw_opened.load() || raw_ended.load(); });

    Loop loop;
    metrics::Registry registry;
    client::Options client_options;
    client_options.registry = &registry;
    StatusOr<std::unique_ptr<client::Client>> direct = client::New(config, loop.Executor(), std::move(client_options));
    if (!direct.Ok())
        return direct.GetStatus().Annotate("making the patch client");
    const cache::ReflectorStats stats_before = informer.Stats();
    const double cpu_before = CpuSeconds();
    const Clock::time_point load_start = Clock::now();
    const int64_t load_start_ns = times->Now();
    times->updates = 0;
    PatchRun run{.client = **direct, .options = options, .times = *times, .end = load_start};
    run.end += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.patch_seconds));
    std::latch done(options.patch_concurrency);
    for (int i = 0; i < options.patch_concurrency; ++i)
        boost::asio::co_spawn(loop.Executor(), PatchWorker(run), [&done](std::exception_ptr) { done.count_down(); });
    done.wait();
    const double load_seconds = std::chrono::duration<double>(Clock::now() - load_start).count();

    // Every answered patch must come back as an event; wait at most 30 s for the stragglers.
    auto missing = [&](const std::unique_ptr<std::atomic<int64_t>[]>& column) {
        int count = 0;
        for (int i = 0; i < run.next; ++i)
            count += times->answered[i] >= 0 && column[i] < 0 ? 1 : 0;
        return count;
    };
    WaitUntil(30s, [&] { return missing(times->seen) == 0 && (!raw_opened || missing(times->seen_raw) == 0); });
    const double cpu_seconds = CpuSeconds() - cpu_before;
    loop.Stop();
    raw_ctx.Cancel();
    WaitUntil(10s, [&] { return raw_ended.load(); });
    raw_loop.Stop();

    // Delays from the answer (and from the send) to the event, in the cache and on the raw watch.
    std::vector<int64_t> answer_to_event, send_to_event, answer_to_raw;
    int early = 0;  // events the cache saw before the patch's answer reached the patcher
    for (int i = 0; i < run.next; ++i) {
        const int64_t seen = times->seen[i];
        const int64_t answered = times->answered[i];
        if (answered < 0)
            continue;
        if (seen >= 0) {
            answer_to_event.push_back(seen - answered);
            send_to_event.push_back(seen - times->sent[i]);
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
            for (int i = 0; i < run.next; ++i)
                std::fprintf(file, "%d %.6f %.6f %.6f %.6f\n", i, at(times->sent[i]), at(times->answered[i]),
                             times->seen[i] < 0 ? -1.0 : at(times->seen[i]),
                             times->seen_raw[i] < 0 ? -1.0 : at(times->seen_raw[i]));
            std::fclose(file);
        }
    }
    const double events_seconds = static_cast<double>(times->last_event.load() - load_start_ns) / 1e9;
    out << " patches=" << run.ok << " patch_errors=" << run.errors << " patch_s=" << load_seconds
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
    if (run.errors > 0)
        std::fprintf(stderr, "cache_sync_bench: %d patches failed; the first: %s\n", run.errors,
                     run.first_error.c_str());
    return OkStatus();
}

}  // namespace ctrl::bench
