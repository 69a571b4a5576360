#pragma once

// A steady write load for the benchmarks: merge patches of one annotation on the workload's pods,
// each patch carrying its own sequence number, so whoever sees a pod (a cache's event handler, a
// raw watch, a reconciler reading the cache) can tell which patch it sees and when it was sent
// and answered.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/rest/config.hpp"
#include "test/support/workload.hpp"

namespace ctrl::bench {

// Patches "bench.ctrl.dev/seq": "<run nonce>-<seq>" of pod seq % pods (round robin over the
// workload's pods, laid out as WorkloadOptions lays them) with `concurrency` patches in flight,
// through a direct client on a loop thread of its own, until `seconds` pass. Notes when each
// patch was sent and answered. The nonce keeps a re-run's patches from repeating a value (a merge
// patch that changes nothing makes no event). Run once; read the figures after it returns.
class AnnotationPatchLoad final {
  public:
    // The most patches one run sends, whatever the server's speed.
    static constexpr int kMaxPatches = 200000;
    static constexpr std::string_view kAnnotation = "bench.ctrl.dev/seq";

    // origin: the time base of Now() and every column.
    explicit AnnotationPatchLoad(std::chrono::steady_clock::time_point origin = std::chrono::steady_clock::now());

    // Nanoseconds since origin.
    int64_t Now() const {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count();
    }
    // The sequence number of this run's patch that object carries; -1 when none.
    int SeqOf(const Object& object) const;

    // Sends the load and returns when every patch has been answered (or failed). An error when
    // the client cannot be made; failed patches are counted, the first one's error kept.
    Status Run(const rest::Config& config, const ctrl::testing::WorkloadOptions& layout, int concurrency,
               double seconds);

    // Patches sent (seq 0 .. Sent()-1), answered OK, failed; the load's duration in seconds.
    int Sent() const { return next_; }
    int Answered() const { return ok_; }
    int Errors() const { return errors_; }
    const std::string& FirstError() const { return first_error_; }
    double Seconds() const { return seconds_; }
    // When patch seq was sent and answered (Now()'s base); -1: not (an answered -1 is a failure).
    int64_t SentAt(int seq) const { return sent_[seq]; }
    int64_t AnsweredAt(int seq) const { return answered_[seq]; }
    int64_t StartedAt() const { return started_at_; }
    // The run's nonce: every value this run writes is "<nonce>-<seq>".
    const std::string& Nonce() const { return nonce_; }

  private:
    struct Worker;

    const std::chrono::steady_clock::time_point start_;
    const std::string nonce_;
    std::unique_ptr<std::atomic<int64_t>[]> sent_, answered_;
    int next_ = 0;
    int ok_ = 0;
    int errors_ = 0;
    std::string first_error_{};
    double seconds_ = 0;
    int64_t started_at_ = 0;
};

}  // namespace ctrl::bench
