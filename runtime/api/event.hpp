#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ctrl/api/timestamp.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/scheme/object_view.hpp"
#include "ctrl/scheme/typed_list.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::api {

// core/v1 Event.type values.
inline constexpr std::string_view kEventTypeNormal = "Normal";
inline constexpr std::string_view kEventTypeWarning = "Warning";

// core/v1 ObjectReference: what an Event is about.
struct ObjectReference {
    std::string api_version;
    std::string kind;
    std::string namespace_name;
    std::string name;
    std::string uid;
    std::string resource_version;
    std::string field_path;  // "spec.containers{app}": a part of the object; usually empty

    bool operator==(const ObjectReference&) const = default;
};

// A reference to object from its apiVersion, kind and metadata.
ObjectReference ObjectReferenceTo(const Object& object);

// core/v1 EventSource.
struct EventSource {
    std::string component;
    std::string host;

    bool operator==(const EventSource&) const = default;
};

// The read accessors of an Event, shared by Event and EventView.
template <typename Self>
class EventFields {
  public:
    ObjectReference InvolvedObject() const;
    std::string_view Reason() const;   // "Scheduled", "BackOff", ...: a short CamelCase word
    std::string_view Message() const;  // for humans
    std::string_view Type() const;     // kEventTypeNormal or kEventTypeWarning
    // How many times it happened; 0 when unset.
    int64_t Count() const;
    // firstTimestamp / lastTimestamp (metav1.Time) and eventTime (metav1.MicroTime).
    std::optional<Timestamp> FirstTimestamp() const;
    std::optional<Timestamp> LastTimestamp() const;
    std::optional<Timestamp> EventTime() const;
    EventSource Source() const;
    std::string_view ReportingController() const;
    std::string_view ReportingInstance() const;
    std::string_view Action() const;

  private:
    const Object& Obj() const { return static_cast<const Self&>(*this).AsObject(); }
};

class EventView;

// core/v1 Event: what an event recorder writes and `kubectl get events` reads.
class Event final : public scheme::TypedObjectBase<Event>, public EventFields<Event> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"", "v1", "Event"};
    static constexpr std::string_view kListKind = "EventList";
    using View = EventView;
    using TypedObjectBase::TypedObjectBase;

    // Empty fields of reference are left out.
    void SetInvolvedObject(const ObjectReference& reference);
    void SetReason(std::string_view reason);
    void SetMessage(std::string_view message);
    void SetType(std::string_view type);
    void SetCount(int64_t count);
    void SetFirstTimestamp(Timestamp time);
    void SetLastTimestamp(Timestamp time);
    void SetEventTime(Timestamp time);
    void SetSource(const EventSource& source);
    void SetReportingController(std::string_view controller);
    void SetReportingInstance(std::string_view instance);
    void SetAction(std::string_view action);
};

// A read-only Event view of an object owned elsewhere.
class EventView final : public scheme::ObjectView, public EventFields<EventView> {
  public:
    explicit EventView(const Object& object) : ObjectView(object) {}
    EventView(const Event& event) : ObjectView(event) {}  // NOLINT(google-explicit-constructor)
    EventView(Event&&) = delete;
};

using EventList = scheme::TypedList<Event>;

extern template class EventFields<Event>;
extern template class EventFields<EventView>;

}  // namespace ctrl::api
