#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "test/bench/annotation_patch_load.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/probe_setup.hpp"
#include "test/bench/vs/scenarios.hpp"

namespace ctrl::bench::vs {
namespace {

// Writes the record file (PROTOCOL.md, "The patch load"): the nonce, then one line per patch sent,
// its times as CLOCK_REALTIME ns. load's times count from origin (steady clock), which was taken
// together with origin_unix_ns; a failed patch's answered time is written 0.
Status WriteRecord(const std::string& path, const AnnotationPatchLoad& load, int64_t origin_unix_ns) {
    std::ofstream out(path, std::ios::trunc);
    if (!out)
        return Status(StatusCode::kInternal, "cannot write the record file " + path);
    out << "nonce " << load.Nonce() << '\n';
    for (int seq = 0; seq < load.Sent(); ++seq) {
        const int64_t sent = load.SentAt(seq);
        const int64_t answered = load.AnsweredAt(seq);
        const bool ok = sent >= 0 && answered >= 0;
        out << seq << ' ' << (sent >= 0 ? origin_unix_ns + sent : 0) << ' ' << (ok ? origin_unix_ns + answered : 0)
            << ' ' << (ok ? 1 : 0) << '\n';
    }
    out.flush();
    if (!out)
        return Status(StatusCode::kInternal, "writing the record file " + path + " failed");
    return OkStatus();
}

}  // namespace

// patch-load --concurrency C --seconds S --out FILE: the one write load both probes watch.
int RunPatchLoad(const ProbeArgs& args) {
    if (!args.flags.count("concurrency") || !args.flags.count("seconds") || args.Text("out").empty()) {
        std::fprintf(stderr, "ctrl-vs-probe patch-load: --concurrency, --seconds and --out are required\n");
        return 2;
    }
    const double concurrency = args.Number("concurrency", 0);
    const double seconds = args.Number("seconds", 0);
    if (concurrency < 1 || concurrency != static_cast<int>(concurrency) || seconds <= 0) {
        std::fprintf(stderr, "ctrl-vs-probe patch-load: --concurrency must be a count, --seconds positive\n");
        return 2;
    }
    StatusOr<rest::Config> config = LoadProbeConfig(args);
    if (!config.Ok())
        return Fail(args, config.GetStatus().ToString());

    // One instant on both clocks: the load's steady times become CLOCK_REALTIME from it.
    const auto origin = std::chrono::steady_clock::now();
    const int64_t origin_unix_ns = UnixNanos();
    AnnotationPatchLoad load(origin);
    if (Status ran = load.Run(*config, args.layout, static_cast<int>(concurrency), seconds); !ran.Ok())
        return Fail(args, ran.ToString());
    if (load.Errors() > 0)
        std::fprintf(stderr, "ctrl-vs-probe patch-load: %d of %d patches failed; the first: %s\n", load.Errors(),
                     load.Sent(), load.FirstError().c_str());
    if (Status written = WriteRecord(args.Text("out"), load, origin_unix_ns); !written.Ok())
        return Fail(args, written.ToString());
    if (load.Answered() == 0)
        return Fail(args, "no patch was answered OK");
    PrintResult(
        {{"sent", load.Sent()}, {"answered", load.Answered()}, {"errors", load.Errors()}, {"seconds", load.Seconds()}});
    return 0;
}

}  // namespace ctrl::bench::vs
