// Transcoding protobuf to the API server's JSON: ns per pod and MB/s for the benchmark workload's
// pod (test/support/workload.hpp, recorded from kube-apiserver v1.37.2: 5.96 KB of protobuf, 8.04 KB
// of JSON) and a pod using most optional sections; beside parsing the same JSON into an Object (what
// the reflector does per object today), and transcode + parse (what it would do with protobuf); and
// the watch decoder's whole path for one protobuf event of that pod (frame -> transcode -> Object),
// with managedFields kept and dropped (what a store that strips them asks for); and that event into
// a store's compact form, through an Object or straight through the store's sink.
#include <benchmark/benchmark.h>

#include <optional>
#include <string>
#include <utility>

#include "ctrl/cache/internal/compact_builder.hpp"
#include "ctrl/cache/internal/compact_value.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/protobuf/transcode.hpp"
#include "ctrl/rest/watch_decoder.hpp"
#include "test/unit/protobuf/proto_builder.hpp"
#include "test/unit/protobuf/read_testdata.hpp"

namespace {

std::string Read(const std::string& name) {
    return ctrl::protobuf::test::ReadTestdata(name);
}

void Counters(benchmark::State& state, std::size_t protobuf_bytes, std::size_t json_bytes) {
    state.SetItemsProcessed(state.iterations());
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * protobuf_bytes));
    state.counters["json_MB/s"] =
        benchmark::Counter(static_cast<double>(state.iterations() * json_bytes) / 1e6, benchmark::Counter::kIsRate);
}

void BM_Transcode(benchmark::State& state, const char* name) {
    const std::string pb = Read(std::string(name) + ".pb");
    std::string json;
    std::size_t json_bytes = 0;
    for (auto _ : state) {
        json.clear();
        if (!ctrl::protobuf::AppendJsonForEnvelope(pb, json).Ok()) {
            state.SkipWithError("transcode failed");
            break;
        }
        json_bytes = json.size();
        benchmark::DoNotOptimize(json.data());
    }
    Counters(state, pb.size(), json_bytes);
}

void BM_ParseJson(benchmark::State& state, const char* name) {
    const std::string json = Read(std::string(name) + ".json");
    for (auto _ : state) {
        ctrl::StatusOr<ctrl::Object> object = ctrl::Object::Parse(json);
        benchmark::DoNotOptimize(object.Ok());
    }
    Counters(state, 0, json.size());
}

void BM_TranscodeAndParse(benchmark::State& state, const char* name) {
    const std::string pb = Read(std::string(name) + ".pb");
    std::string json;
    for (auto _ : state) {
        json.clear();
        if (!ctrl::protobuf::AppendJsonForEnvelope(pb, json).Ok()) {
            state.SkipWithError("transcode failed");
            break;
        }
        ctrl::StatusOr<ctrl::Object> object = ctrl::Object::Parse(json);
        benchmark::DoNotOptimize(object.Ok());
    }
    Counters(state, pb.size(), json.size());
}

// A protobuf watch stream frame: 4-byte big-endian length, then metav1.WatchEvent{type = 1, object =
// 2 (runtime.RawExtension{raw = 1: the envelope})}.
std::string WatchFrame(const std::string& envelope) {
    using ctrl::protobuf::test::ProtoBuilder;
    const std::string event = ProtoBuilder().Bytes(1, "ADDED").Message(2, ProtoBuilder().Bytes(1, envelope)).str();
    std::string frame(4, '\0');
    for (int i = 0; i < 4; ++i) {
        frame[static_cast<std::size_t>(i)] = static_cast<char>((event.size() >> (8 * (3 - i))) & 0xff);
    }
    return frame + event;
}

// The watch decoder of a protobuf stream, managedFields kept or dropped.
ctrl::rest::WatchDecoder ProtobufDecoder(bool drop_managed_fields) {
    ctrl::rest::WatchDecoderOptions options;
    options.protobuf = true;
    options.drop_managed_fields = drop_managed_fields;
    return ctrl::rest::WatchDecoder(options);
}

// Feeds frame and decodes it (into sink, when given); nullopt, with the state told why, on failure.
std::optional<ctrl::rest::WatchEvent> FeedAndDecode(benchmark::State& state, ctrl::rest::WatchDecoder& decoder,
                                                    const std::string& frame, ctrl::rest::WatchObjectSink* sink) {
    if (!decoder.Feed(frame).Ok()) {
        state.SkipWithError("feed failed");
        return std::nullopt;
    }
    auto event = decoder.Next(sink);
    if (!event.Ok() || !event->has_value()) {
        state.SkipWithError("decode failed");
        return std::nullopt;
    }
    return std::move(**event);
}

void BM_WatchEventToObject(benchmark::State& state, bool drop_managed_fields) {
    const std::string pb = Read("workload_pod.pb");
    const std::string frame = WatchFrame(pb);
    ctrl::rest::WatchDecoder decoder = ProtobufDecoder(drop_managed_fields);
    for (auto _ : state) {
        std::optional<ctrl::rest::WatchEvent> event = FeedAndDecode(state, decoder, frame, nullptr);
        if (!event)
            break;
        benchmark::DoNotOptimize(event->object);
    }
    Counters(state, pb.size(), 0);
}

// One protobuf ADDED event of the pod into a store's compact form, as a streamed list stores it:
// into an Object then CompactValue::Encode (the path before issue 19's third round, and still the
// path of a store whose transform needs Objects), or straight from the decoder's values through the
// store's sink (CompactBuilder), with no Object between. The same pod each time: its repeated values
// are interned and its FieldsV1 after the first written from memory, the builder's best case.
void BM_WatchEventToStore(benchmark::State& state, bool drop_managed_fields, bool through_sink) {
    const std::string pb = Read("workload_pod.pb");
    const std::string frame = WatchFrame(pb);
    ctrl::rest::WatchDecoder decoder = ProtobufDecoder(drop_managed_fields);
    ctrl::cache::internal::InternTable table;
    ctrl::cache::internal::CompactBuilder builder(table);
    for (auto _ : state) {
        std::optional<ctrl::rest::WatchEvent> event =
            FeedAndDecode(state, decoder, frame, through_sink ? &builder : nullptr);
        if (!event)
            break;
        if (through_sink) {
            std::optional<ctrl::cache::internal::BuiltObject> built = builder.Take();
            benchmark::DoNotOptimize(built);
        } else {
            ctrl::cache::internal::CompactValue value =
                ctrl::cache::internal::CompactValue::Encode(event->object, table);
            benchmark::DoNotOptimize(value);
        }
    }
    Counters(state, pb.size(), 0);
}

BENCHMARK_CAPTURE(BM_Transcode, workload_pod, "workload_pod");
BENCHMARK_CAPTURE(BM_Transcode, rich_pod, "rich_pod");
BENCHMARK_CAPTURE(BM_ParseJson, workload_pod, "workload_pod");
BENCHMARK_CAPTURE(BM_TranscodeAndParse, workload_pod, "workload_pod");
BENCHMARK_CAPTURE(BM_WatchEventToObject, managed_fields_kept, false);
BENCHMARK_CAPTURE(BM_WatchEventToObject, managed_fields_dropped, true);
BENCHMARK_CAPTURE(BM_WatchEventToStore, kept_via_object, false, false);
BENCHMARK_CAPTURE(BM_WatchEventToStore, kept_via_sink, false, true);
BENCHMARK_CAPTURE(BM_WatchEventToStore, dropped_via_object, true, false);
BENCHMARK_CAPTURE(BM_WatchEventToStore, dropped_via_sink, true, true);

}  // namespace

BENCHMARK_MAIN();
