#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "ctrl/core/object.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/metrics/metric.hpp"

namespace ctrl::record {

namespace internal {
class EventQueue;
}  // namespace internal

// Records core/v1 Events about objects on behalf of one component (client-go's
// record.EventRecorder, as controller-runtime's mgr.GetEventRecorderFor(name) returns it). Event
// never waits: it queues the event for the Broadcaster that made this recorder, which correlates
// and writes it later; when the queue is full the event is dropped (counted, and logged). Cheap
// to copy; thread-safe; usable after the Broadcaster is gone (events are then dropped).
class EventRecorder final {
  public:
    // An event about regarding (which has apiVersion, kind and a name) of type api::kEventTypeNormal
    // or api::kEventTypeWarning; reason is a short CamelCase word, message is for humans. The
    // Event goes to regarding's namespace ("default" for a cluster-scoped object).
    void Event(const Object& regarding, std::string_view type, std::string_view reason, std::string_view message) const;
    // Event with a printf-style message.
    void Eventf(const Object& regarding, std::string_view type, std::string_view reason, const char* format, ...) const
        __attribute__((format(printf, 5, 6)));

    // The component it records for (source.component and reportingController of its Events).
    const std::string& Name() const { return name_; }

  private:
    friend class Broadcaster;
    EventRecorder(std::shared_ptr<internal::EventQueue> queue, std::string name, metrics::Counter dropped);

    std::shared_ptr<internal::EventQueue> queue_;
    std::string name_;
    metrics::Counter dropped_;
    log::Logger log_;
};

}  // namespace ctrl::record
