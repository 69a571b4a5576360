#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>

#include "ctrl/api/event.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/metrics/metric.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/record/event_correlator.hpp"
#include "ctrl/record/event_recorder.hpp"

namespace ctrl::record {

namespace internal {
class EventQueue;
struct PendingEvent;
}  // namespace internal

// The options of Broadcaster, with client-go's defaults where it has them.
struct BroadcasterOptions {
    // Events waiting to be written; more are dropped (client-go's maxQueuedEvents).
    size_t queue_size = 1000;
    // Attempts to write one event when the server cannot be reached (client-go's maxTriesPerEvent),
    // the pause between them (the first one random within it, so clients do not retry in step).
    int max_tries = 12;
    std::chrono::milliseconds retry_sleep{10000};
    // After Run's ctx ends, how long queued events may still be written.
    std::chrono::milliseconds flush_timeout{5000};
    // source.host and reportingInstance of every Event. Default: the hostname.
    std::string host;
    CorrelatorOptions correlator{};
    // Where ctrl_event_recorder_events_total goes. Default: metrics::DefaultRegistry().
    metrics::Registry* registry = nullptr;
};

// What happened to the events recorded so far (also ctrl_event_recorder_events_total{result}).
struct BroadcasterStats {
    uint64_t created = 0;   // a new Event object
    uint64_t patched = 0;   // an existing Event's count and lastTimestamp raised
    uint64_t filtered = 0;  // over the spam budget of its source + object
    uint64_t dropped = 0;   // the queue was full or closed
    uint64_t failed = 0;    // the server refused it, or it could not be written in max_tries
};

// Owns the queue that EventRecorders feed and the coroutine that drains it (client-go's
// EventBroadcaster started with StartRecordingToSink): each event passes the EventCorrelator,
// then is created or patched through client, retried when the server cannot be reached. Make
// recorders with GetEventRecorderFor before or while Run runs. Thread-safe.
class Broadcaster final {
  public:
    // client must outlive Run.
    explicit Broadcaster(client::Client& client, BroadcasterOptions options = {});
    ~Broadcaster();
    Broadcaster(const Broadcaster&) = delete;
    Broadcaster& operator=(const Broadcaster&) = delete;

    // A recorder whose Events carry name as source.component and reportingController.
    EventRecorder GetEventRecorderFor(std::string_view name) const;

    // Writes queued events until ctx ends; then refuses new ones, writes what is queued for up to
    // flush_timeout, and returns OK. Call once.
    Task<Status> Run(Context ctx);

    BroadcasterStats Stats() const;

  private:
    struct Metrics {
        metrics::Counter created;
        metrics::Counter patched;
        metrics::Counter filtered;
        metrics::Counter dropped;
        metrics::Counter failed;
    };
    static Metrics NewMetrics(metrics::Registry& registry);

    api::Event MakeEvent(const internal::PendingEvent& pending) const;
    // Correlates one event and writes it, retrying while the server cannot be reached.
    Task<void> Record(Context ctx, internal::PendingEvent pending);
    // One write: whether it is done (written, or refused for good).
    Task<bool> Write(Context ctx, const CorrelateResult& result);

    client::Client& client_;
    BroadcasterOptions options_;
    std::shared_ptr<internal::EventQueue> queue_;
    EventCorrelator correlator_;
    Metrics metrics_;
    log::Logger log_;
    std::mt19937_64 random_;
};

}  // namespace ctrl::record
