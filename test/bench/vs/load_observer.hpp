#pragma once

// The probe's side of the external patch load (PROTOCOL.md, "The patch load"): note when each
// annotation value was first seen, announce SYNCED, wait for STOP, read the load's record file and
// turn both into the delay figures.

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"
#include "test/bench/bench_process.hpp"

namespace ctrl::bench::vs {

// CLOCK_REALTIME nanoseconds since the Unix epoch: the time base every process of a run shares.
int64_t UnixNanos();

// Prints "RESULT k=v ..." on stdout and flushes it.
void PrintResult(const Figures& figures);

// Thread-safe: the first time each value of the load's annotation was seen.
class SeenValues {
  public:
    // Notes object's "bench.ctrl.dev/seq" value (if any) as seen now, unless seen before.
    void Note(const Object& object);
    void Note(std::string_view value, int64_t at_unix_ns);
    std::unordered_map<std::string, int64_t> Snapshot() const;
    // Values noted so far.
    std::size_t Size() const;

  private:
    mutable std::mutex mu_;
    std::unordered_map<std::string, int64_t> first_seen_;
};

// One patch of the load's record file.
struct RecordedPatch {
    int seq = 0;
    int64_t sent = 0;
    int64_t answered = 0;
    bool ok = false;
};

// The load's record file.
struct LoadRecord {
    std::string nonce;
    std::vector<RecordedPatch> patches;
    int Answered() const;
};
StatusOr<LoadRecord> ReadLoadRecord(const std::string& path);

// Prints "SYNCED", reads "STOP <record-file> <answered>" on stdin and reads that file.
StatusOr<LoadRecord> AwaitStop();

// Waits (polling) until every patch answered OK in record was seen, or 15 s pass.
void WaitUntilAllSeen(const LoadRecord& record, const SeenValues& seen);

// events, missed, events_per_s (seen / (last seen - first sent)), delay_send_p50_ms/p99,
// delay_answer_p50_ms/p99. Also returns the last seen time in *last_seen.
Figures LoadFigures(const LoadRecord& record, const SeenValues& seen, int64_t* last_seen = nullptr);

}  // namespace ctrl::bench::vs
