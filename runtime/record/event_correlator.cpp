#include "ctrl/record/event_correlator.hpp"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <string_view>
#include <utility>

namespace ctrl::record {

namespace {

constexpr std::string_view kCombinedPrefix = "(combined from similar events): ";

// Joins parts with a separator no field contains, so ("ab","c") and ("a","bc") differ.
std::string JoinKey(std::initializer_list<std::string_view> parts) {
    std::string key;
    for (std::string_view part : parts) {
        key.append(part);
        key.push_back('\x1f');
    }
    return key;
}

}  // namespace

std::string EventName(std::string_view object_name, api::Timestamp time) {
    const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
    char suffix[32];
    std::snprintf(suffix, sizeof(suffix), ".%llx", static_cast<unsigned long long>(nanos));
    return std::string(object_name) + suffix;
}

std::string EventKey(const api::Event& event) {
    const api::ObjectReference ref = event.InvolvedObject();
    const api::EventSource source = event.Source();
    return JoinKey({source.component, source.host, ref.kind, ref.namespace_name, ref.name, ref.field_path, ref.uid,
                    ref.api_version, event.Type(), event.Reason(), event.Message()});
}

std::string SpamKey(const api::Event& event) {
    const api::ObjectReference ref = event.InvolvedObject();
    const api::EventSource source = event.Source();
    return JoinKey({source.component, source.host, ref.kind, ref.namespace_name, ref.name, ref.uid, ref.api_version});
}

std::string AggregateKey(const api::Event& event) {
    const api::ObjectReference ref = event.InvolvedObject();
    const api::EventSource source = event.Source();
    return JoinKey({source.component, source.host, ref.kind, ref.namespace_name, ref.name, ref.uid, ref.api_version,
                    event.Type(), event.Reason(), event.ReportingController(), event.ReportingInstance()});
}

EventCorrelator::EventCorrelator(CorrelatorOptions options)
    : options_(std::move(options)),
      observations_(options_.lru_cache_size),
      similar_(options_.lru_cache_size),
      spam_(options_.lru_cache_size) {
    if (!options_.now)
        options_.now = [] { return std::chrono::system_clock::now(); };
}

CorrelateResult EventCorrelator::Correlate(api::Event event) {
    std::lock_guard lock(mu_);
    const api::Timestamp now = options_.now();
    std::string key;
    CorrelateResult result;
    result.event = AggregateLocked(std::move(event), key, now);
    result.update_existing = ObserveLocked(result.event, key);
    result.skip = FilterLocked(result.event, now);
    return result;
}

void EventCorrelator::UpdateState(const api::Event& written) {
    Observation observation;
    observation.count = written.Count();
    observation.first_timestamp = written.FirstTimestamp().value_or(api::Timestamp{});
    observation.name = std::string(written.Name());
    observation.resource_version = std::string(written.ResourceVersion());
    std::lock_guard lock(mu_);
    observations_.Add(EventKey(written), std::move(observation));
}

api::Event EventCorrelator::AggregateLocked(api::Event event, std::string& key, api::Timestamp now) {
    key = EventKey(event);
    const std::string aggregate_key = AggregateKey(event);

    SimilarEvents record;
    if (const SimilarEvents* found = similar_.Get(aggregate_key))
        record = *found;
    // Similar events further apart than max_interval start a new group (client-go's
    // "interval > maxInterval"); a record never seen has the epoch as its last time.
    if (now - record.last_timestamp > options_.max_interval)
        record = SimilarEvents{};
    record.messages.insert(std::string(event.Message()));
    record.last_timestamp = now;
    const bool over = record.messages.size() >= static_cast<size_t>(std::max(options_.max_events, 1));
    if (over)
        record.messages.erase(record.messages.begin());  // keep the set from growing past max_events
    similar_.Add(aggregate_key, std::move(record));
    if (!over)
        return event;

    api::Event combined;
    const api::ObjectReference ref = event.InvolvedObject();
    combined.SetName(EventName(ref.name, now));
    combined.SetNamespace(event.Namespace());
    combined.SetCount(1);
    combined.SetFirstTimestamp(now);
    combined.SetLastTimestamp(now);
    combined.SetInvolvedObject(ref);
    combined.SetMessage(std::string(kCombinedPrefix) + std::string(event.Message()));
    combined.SetType(event.Type());
    combined.SetReason(event.Reason());
    combined.SetSource(event.Source());
    key = aggregate_key;
    return combined;
}

bool EventCorrelator::ObserveLocked(api::Event& event, const std::string& key) {
    Observation last;
    if (const Observation* found = observations_.Get(key))
        last = *found;
    const bool existing = last.count > 0;
    if (existing) {
        event.SetName(last.name);
        event.SetResourceVersion(last.resource_version);
        event.SetFirstTimestamp(last.first_timestamp);
        event.SetCount(last.count + 1);
    }
    Observation observed;
    observed.count = event.Count();
    observed.first_timestamp = event.FirstTimestamp().value_or(api::Timestamp{});
    observed.name = std::string(event.Name());
    observed.resource_version = std::string(event.ResourceVersion());
    observations_.Add(key, std::move(observed));
    return existing;
}

bool EventCorrelator::FilterLocked(const api::Event& event, api::Timestamp now) {
    const std::string key = SpamKey(event);
    SpamBucket bucket;
    if (const SpamBucket* found = spam_.Get(key)) {
        bucket = *found;
        const double elapsed = std::chrono::duration<double>(now - bucket.last).count();
        bucket.tokens =
            std::min(static_cast<double>(options_.burst), bucket.tokens + std::max(elapsed, 0.0) * options_.qps);
    } else {
        bucket.tokens = options_.burst;
    }
    bucket.last = std::max(bucket.last, now);
    const bool accepted = bucket.tokens >= 1.0;
    if (accepted)
        bucket.tokens -= 1.0;
    spam_.Add(key, bucket);
    return !accepted;
}

}  // namespace ctrl::record
