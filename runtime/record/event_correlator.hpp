#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "ctrl/api/event.hpp"
#include "ctrl/api/timestamp.hpp"
#include "ctrl/record/internal/lru_cache.hpp"

namespace ctrl::record {

// The knobs of EventCorrelator, with client-go's defaults (NewEventCorrelator).
struct CorrelatorOptions {
    // Entries each of the three caches keeps (least recently used forgotten first).
    size_t lru_cache_size = 4096;
    // Spam filter: a token bucket per source + involved object, starting with burst tokens and
    // refilled at qps (one every 5 minutes).
    int burst = 25;
    double qps = 1.0 / 300.0;
    // Events that differ only in message: once max_events distinct messages were seen within
    // max_interval of each other, they are combined into one "(combined from similar events): ..." Event.
    int max_events = 10;
    std::chrono::seconds max_interval{600};
    // The clock of the filter, the aggregation interval and aggregate events' timestamps (tests
    // inject their own). Default: system_clock::now.
    std::function<api::Timestamp()> now{};
};

// What to do with one event after correlation.
struct CorrelateResult {
    // Drop it: its source + object is over the spam budget.
    bool skip = false;
    // Patch the existing Event (the event's name, resourceVersion and firstTimestamp are the
    // existing one's, count one more): only count, lastTimestamp and message change.
    bool update_existing = false;
    api::Event event;
};

// Keeps a hot loop's events from flooding the API server, as client-go's EventCorrelator does:
// identical events (same source, object, type, reason and message) become one Event whose count
// rises; events differing only in message are combined once max_events distinct ones arrive
// within max_interval; a spam filter limits each source + object to a token bucket. Thread-safe.
class EventCorrelator final {
  public:
    explicit EventCorrelator(CorrelatorOptions options = {});

    // Filters, aggregates and counts event (a fresh Event as a recorder makes it: count 1).
    CorrelateResult Correlate(api::Event event);
    // Records what the server answered for a write, so the next identical event patches it.
    void UpdateState(const api::Event& written);

  private:
    struct Observation {
        int64_t count = 0;
        api::Timestamp first_timestamp{};
        std::string name;
        std::string resource_version;
    };
    struct SimilarEvents {
        std::set<std::string> messages;
        api::Timestamp last_timestamp{};
    };
    struct SpamBucket {
        double tokens = 0;
        api::Timestamp last{};
    };

    // The event to write (itself, or an aggregate of similar ones) and the key it is counted under.
    api::Event AggregateLocked(api::Event event, std::string& key, api::Timestamp now);
    // Makes event a patch of the Event last written under key, when there is one.
    bool ObserveLocked(api::Event& event, const std::string& key);
    bool FilterLocked(const api::Event& event, api::Timestamp now);

    CorrelatorOptions options_;
    std::mutex mu_;
    internal::LruCache<Observation> observations_;
    internal::LruCache<SimilarEvents> similar_;
    internal::LruCache<SpamBucket> spam_;
};

// "<object name>.<hex Unix nanoseconds of time>": the name client-go gives a new Event.
std::string EventName(std::string_view object_name, api::Timestamp time);

// The identity of an event for counting: source, involved object (with fieldPath), type, reason, message.
std::string EventKey(const api::Event& event);
// The spam filter's key: source and involved object.
std::string SpamKey(const api::Event& event);
// The aggregation key: source, involved object, type, reason, reporting controller and instance.
std::string AggregateKey(const api::Event& event);

}  // namespace ctrl::record
