#include "ctrl/record/event_recorder.hpp"

#include <cstdarg>
#include <cstdio>
#include <utility>
#include <vector>

#include "ctrl/api/event.hpp"
#include "ctrl/record/internal/event_queue.hpp"

namespace ctrl::record {

EventRecorder::EventRecorder(std::shared_ptr<internal::EventQueue> queue, std::string name, metrics::Counter dropped)
    : queue_(std::move(queue)),
      name_(std::move(name)),
      dropped_(dropped),
      log_(log::Logger().WithName("events").WithValues("component", name_)) {}

void EventRecorder::Event(const Object& regarding, std::string_view type, std::string_view reason,
                          std::string_view message) const {
    if (type != api::kEventTypeNormal && type != api::kEventTypeWarning) {
        log_.Error(BadRequestError("unsupported event type"), "dropping an event", "type", type, "reason", reason);
        return;
    }
    internal::PendingEvent event;
    event.regarding = api::ObjectReferenceTo(regarding);
    if (event.regarding.kind.empty() || event.regarding.name.empty()) {
        log_.Error(BadRequestError("the object has no kind or no name"), "dropping an event", "reason", reason);
        return;
    }
    event.type = std::string(type);
    event.reason = std::string(reason);
    event.message = std::string(message);
    event.component = name_;
    event.time = std::chrono::system_clock::now();
    if (queue_->Push(std::move(event)))
        return;
    dropped_.Inc();
    // One line for the first drop and every thousandth after it, so a flood does not flood the log too.
    const auto dropped = static_cast<unsigned long long>(dropped_.Value());
    if (dropped % 1000 == 1)
        log_.Error(UnavailableError("the event queue is full or closed"), "dropping an event", "reason", reason,
                   "object", regarding.Key(), "droppedSoFar", dropped);
}

void EventRecorder::Eventf(const Object& regarding, std::string_view type, std::string_view reason, const char* format,
                           ...) const {
    va_list args;
    va_start(args, format);
    va_list measure;
    va_copy(measure, args);
    const int length = std::vsnprintf(nullptr, 0, format, measure);
    va_end(measure);
    std::vector<char> text(length > 0 ? static_cast<size_t>(length) + 1 : 1, '\0');
    if (length > 0)
        std::vsnprintf(text.data(), text.size(), format, args);
    va_end(args);
    Event(regarding, type, reason, std::string_view(text.data(), length > 0 ? static_cast<size_t>(length) : 0));
}

}  // namespace ctrl::record
