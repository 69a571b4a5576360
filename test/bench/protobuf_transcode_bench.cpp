// Transcoding protobuf to the API server's JSON: ns per pod and MB/s for the benchmark workload's
// pod (test/support/workload.hpp, recorded from kube-apiserver v1.37.2: 5.96 KB of protobuf, 8.04 KB
// of JSON) and a pod using most optional sections; beside parsing the same JSON into an Object (what
// the reflector does per object today), and transcode + parse (what it would do with protobuf).
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

#include "runtime/core/object.hpp"
#include "runtime/protobuf/transcode.hpp"

namespace {

std::string Read(const std::string& name) {
    std::ifstream in(std::string(CTRL_PROTOBUF_TESTDATA_DIR) + "/" + name, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
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

BENCHMARK_CAPTURE(BM_Transcode, workload_pod, "workload_pod");
BENCHMARK_CAPTURE(BM_Transcode, rich_pod, "rich_pod");
BENCHMARK_CAPTURE(BM_ParseJson, workload_pod, "workload_pod");
BENCHMARK_CAPTURE(BM_TranscodeAndParse, workload_pod, "workload_pod");

}  // namespace

BENCHMARK_MAIN();
