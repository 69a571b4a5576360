// What logging costs: a V line below the verbosity (the common case: every request checks its V(6)
// line), a line written to a sink that drops it (formatting and the record, no I/O), a text and a JSON
// line rendered into memory, and a logger taken from a Context.

#include <benchmark/benchmark.h>

#include <sstream>

#include "ctrl/log/log.hpp"

namespace ctrl::log {
namespace {

class NullSink final : public Sink {
  public:
    void Write(const Record& record) override { benchmark::DoNotOptimize(record.fields.data()); }
};

const Logger& RestLogger() {
    static const Logger logger = Logger().WithName("rest");
    return logger;
}

void BM_DisabledVLine(benchmark::State& state) {
    SetVerbosity(0);
    const std::string url = "https://127.0.0.1:6443/api/v1/namespaces/default/pods/web-0";
    for (auto _ : state)
        RestLogger().V(6).Info("request", "verb", "GET", "url", url, "status", 200);
}
BENCHMARK(BM_DisabledVLine);

void BM_DisabledEnabledCheck(benchmark::State& state) {
    SetVerbosity(0);
    for (auto _ : state)
        benchmark::DoNotOptimize(RestLogger().Enabled(6));
}
BENCHMARK(BM_DisabledEnabledCheck);

void BM_LineToNullSink(benchmark::State& state) {
    SetSink(std::make_shared<NullSink>());
    SetVerbosity(6);
    const std::string url = "https://127.0.0.1:6443/api/v1/namespaces/default/pods/web-0";
    for (auto _ : state)
        RestLogger().V(6).Info("request", "verb", "GET", "url", url, "status", 200);
    SetVerbosity(0);
    SetSink(nullptr);
}
BENCHMARK(BM_LineToNullSink);

template <bool kJson>
void BM_LineRendered(benchmark::State& state) {
    std::ostringstream out;
    SetSink(kJson ? NewJsonSink(out) : NewTextSink(out));
    SetVerbosity(6);
    const std::string url = "https://127.0.0.1:6443/api/v1/namespaces/default/pods/web-0";
    for (auto _ : state) {
        RestLogger().V(6).Info("request", "verb", "GET", "url", url, "status", 200);
        if (out.tellp() > (1 << 20))
            out.str("");
    }
    SetVerbosity(0);
    SetSink(nullptr);
}
BENCHMARK(BM_LineRendered<false>)->Name("BM_TextLineRendered");
BENCHMARK(BM_LineRendered<true>)->Name("BM_JsonLineRendered");

void BM_FromContext(benchmark::State& state) {
    const Context ctx = IntoContext(Context::Background(), Logger().WithName("reconciler").WithValues("name", "x"));
    const Context child = Context::WithCancel(ctx);
    for (auto _ : state)
        benchmark::DoNotOptimize(FromContext(child));
}
BENCHMARK(BM_FromContext);

}  // namespace
}  // namespace ctrl::log

BENCHMARK_MAIN();
