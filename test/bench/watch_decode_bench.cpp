// Watch-stream decode throughput: a recorded-like stream of 10,000 pod watch events (~8 KB each, with
// managedFields, as a real API server sends them) decoded in 64 KiB blocks. Reports MB/s (bytes_per_second)
// and events/s (items_per_second) for the decoder with its fast path (simdjson), with RapidJSON alone, and
// through WatchStream over an in-memory body (the coroutine per event included).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/core/internal/json.hpp"
#include "ctrl/rest/watch_decoder.hpp"
#include "ctrl/rest/watch_stream.hpp"
#include "test/support/realistic_pod.hpp"

namespace ctrl::rest {
namespace {

constexpr int kEvents = 10000;
constexpr std::size_t kBlockBytes = std::size_t{64} << 10;

// splitmix64: deterministic pseudo-random numbers, so every run decodes the same bytes.
uint64_t Mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// kEvents watch event lines: the first fifth ADDED, then status updates (MODIFIED) of random pods, 2% DELETED,
// and a BOOKMARK every 1000 events, as a busy cluster's pod watch sends them.
std::string MakeStream() {
    std::string stream;
    uint64_t rv = 918273;
    const uint64_t pods = kEvents / 5;
    for (int i = 0; i < kEvents; ++i) {
        ++rv;
        if (i % 1000 == 999) {
            stream += R"({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":")" +
                      std::to_string(rv) + R"(","annotations":{"k8s.io/initial-events-end":"true"}}}})" + "\n";
            continue;
        }
        const uint64_t r = Mix(static_cast<uint64_t>(i));
        const bool added = static_cast<uint64_t>(i) < pods;
        const char* type = added ? "ADDED" : r % 50 == 0 ? "DELETED" : "MODIFIED";
        const uint64_t pod = added ? static_cast<uint64_t>(i) : r % pods;
        stream += std::string(R"({"type":")") + type + R"(","object":)" +
                  ctrl::testing::RealisticPodJson(pod, rv, r % 4) + "}\n";
    }
    return stream;
}

const std::string& Stream() {
    static const std::string stream = MakeStream();
    return stream;
}

void SetCounters(benchmark::State& state, std::size_t events) {
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * Stream().size()));
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * events));
    state.counters["event_bytes"] = static_cast<double>(Stream().size()) / kEvents;
}

// The decoder alone, fed in 64 KiB blocks written straight into its buffer (as WatchStream feeds it).
void DecodeInBlocks(benchmark::State& state, const WatchDecoderOptions& options) {
    const std::string& stream = Stream();
    std::size_t events = 0;
    std::size_t pool_bytes = 0;
    for (auto _ : state) {
        WatchDecoder decoder(options);
        events = 0;
        pool_bytes = 0;
        for (std::size_t offset = 0; offset < stream.size(); offset += kBlockBytes) {
            const std::size_t size = std::min(kBlockBytes, stream.size() - offset);
            std::memcpy(decoder.Prepare(size).data(), stream.data() + offset, size);
            if (!decoder.Commit(size).Ok())
                state.SkipWithError("commit failed");
            while (true) {
                auto event = decoder.Next();
                if (!event.Ok()) {
                    state.SkipWithError(event.GetStatus().ToString().c_str());
                    return;
                }
                if (!event->has_value())
                    break;
                ++events;
                pool_bytes += (*event)->object.Document().pool.Capacity();
                benchmark::DoNotOptimize((*event)->object);
            }
        }
    }
    SetCounters(state, events);
    state.counters["object_pool_bytes"] = static_cast<double>(pool_bytes) / static_cast<double>(events);
}

void BM_WatchDecoder(benchmark::State& state) {
    DecodeInBlocks(state, WatchDecoderOptions());
}
BENCHMARK(BM_WatchDecoder)->Unit(benchmark::kMillisecond);

void BM_WatchDecoderRapidJsonOnly(benchmark::State& state) {
    WatchDecoderOptions options;
    options.fast_path_max_event_bytes = 0;
    DecodeInBlocks(state, options);
}
BENCHMARK(BM_WatchDecoderRapidJsonOnly)->Unit(benchmark::kMillisecond);

// A body held in memory, handed out as the reads ask.
class MemoryBody final : public BodyStream {
  public:
    explicit MemoryBody(std::string_view bytes) : bytes_(bytes) {}
    int StatusCode() const override { return 200; }
    const std::vector<Header>& Headers() const override { return headers_; }
    Task<StatusOr<std::size_t>> ReadSome(Context /*ctx*/, char* data, std::size_t size) override {
        const std::size_t count = std::min(size, bytes_.size() - offset_);
        std::memcpy(data, bytes_.data() + offset_, count);
        offset_ += count;
        co_return count;
    }
    void Close() override {}

  private:
    std::string_view bytes_;
    std::size_t offset_ = 0;
    std::vector<Header> headers_;
};

Task<void> ReadAll(WatchStream& stream, std::size_t& events, Status& status) {
    const Context ctx = Context::Background();
    while (true) {
        auto event = co_await stream.Next(ctx);
        if (!event.Ok()) {
            status = event.GetStatus();
            co_return;
        }
        if (!event->has_value())
            co_return;
        ++events;
    }
}

// Through WatchStream, as an informer reads it: one co_await per event, 64 KiB reads.
void BM_WatchStream(benchmark::State& state) {
    boost::asio::io_context io;
    std::size_t events = 0;
    for (auto _ : state) {
        WatchStream stream(std::make_unique<MemoryBody>(Stream()));
        events = 0;
        Status status;
        boost::asio::co_spawn(io, ReadAll(stream, events, status), boost::asio::detached);
        io.restart();
        io.run();
        if (!status.Ok()) {
            state.SkipWithError(status.ToString().c_str());
            return;
        }
    }
    SetCounters(state, events);
}
BENCHMARK(BM_WatchStream)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ctrl::rest

BENCHMARK_MAIN();
