#include "ctrl/api/event.hpp"

#include "ctrl/api/internal/fields.hpp"
#include "ctrl/api/timestamp.hpp"

namespace ctrl::api {

namespace {

using internal::Find;

std::optional<Timestamp> TimeField(const Object& object, std::string_view field) {
    const std::optional<std::string_view> text = internal::OptString(Find(object, {field}));
    return text ? ParseRfc3339(*text) : std::nullopt;
}

}  // namespace

ObjectReference ObjectReferenceTo(const Object& object) {
    return ObjectReference{std::string(object.ApiVersion()),
                           std::string(object.Kind()),
                           std::string(object.Namespace()),
                           std::string(object.Name()),
                           std::string(object.Uid()),
                           std::string(object.ResourceVersion()),
                           ""};
}

template <typename Self>
ObjectReference EventFields<Self>::InvolvedObject() const {
    const internal::JsonValue* ref = Find(Obj(), {"involvedObject"});
    return ObjectReference{
        internal::StringCopy(Find(ref, {"apiVersion"})), internal::StringCopy(Find(ref, {"kind"})),
        internal::StringCopy(Find(ref, {"namespace"})),  internal::StringCopy(Find(ref, {"name"})),
        internal::StringCopy(Find(ref, {"uid"})),        internal::StringCopy(Find(ref, {"resourceVersion"})),
        internal::StringCopy(Find(ref, {"fieldPath"}))};
}

template <typename Self>
std::string_view EventFields<Self>::Reason() const {
    return internal::String(Find(Obj(), {"reason"}));
}

template <typename Self>
std::string_view EventFields<Self>::Message() const {
    return internal::String(Find(Obj(), {"message"}));
}

template <typename Self>
std::string_view EventFields<Self>::Type() const {
    return internal::String(Find(Obj(), {"type"}));
}

template <typename Self>
int64_t EventFields<Self>::Count() const {
    return internal::Int(Find(Obj(), {"count"}));
}

template <typename Self>
std::optional<Timestamp> EventFields<Self>::FirstTimestamp() const {
    return TimeField(Obj(), "firstTimestamp");
}

template <typename Self>
std::optional<Timestamp> EventFields<Self>::LastTimestamp() const {
    return TimeField(Obj(), "lastTimestamp");
}

template <typename Self>
std::optional<Timestamp> EventFields<Self>::EventTime() const {
    return TimeField(Obj(), "eventTime");
}

template <typename Self>
EventSource EventFields<Self>::Source() const {
    return EventSource{internal::StringCopy(Find(Obj(), {"source", "component"})),
                       internal::StringCopy(Find(Obj(), {"source", "host"}))};
}

template <typename Self>
std::string_view EventFields<Self>::ReportingController() const {
    return internal::String(Find(Obj(), {"reportingComponent"}));
}

template <typename Self>
std::string_view EventFields<Self>::ReportingInstance() const {
    return internal::String(Find(Obj(), {"reportingInstance"}));
}

template <typename Self>
std::string_view EventFields<Self>::Action() const {
    return internal::String(Find(Obj(), {"action"}));
}

template class EventFields<Event>;
template class EventFields<EventView>;

void Event::SetInvolvedObject(const ObjectReference& reference) {
    auto& allocator = internal::Allocator(*this);
    internal::JsonValue ref(rapidjson::kObjectType);
    const std::pair<std::string_view, const std::string*> fields[] = {
        {"apiVersion", &reference.api_version},
        {"kind", &reference.kind},
        {"namespace", &reference.namespace_name},
        {"name", &reference.name},
        {"uid", &reference.uid},
        {"resourceVersion", &reference.resource_version},
        {"fieldPath", &reference.field_path},
    };
    for (const auto& [key, value] : fields) {
        if (!value->empty())
            internal::PutString(ref, key, *value, allocator);
    }
    internal::SetValue(*this, {"involvedObject"}, std::move(ref));
}

void Event::SetReason(std::string_view reason) {
    internal::SetString(*this, {"reason"}, reason);
}

void Event::SetMessage(std::string_view message) {
    internal::SetString(*this, {"message"}, message);
}

void Event::SetType(std::string_view type) {
    internal::SetString(*this, {"type"}, type);
}

void Event::SetCount(int64_t count) {
    internal::SetInt(*this, {"count"}, count);
}

void Event::SetFirstTimestamp(Timestamp time) {
    internal::SetString(*this, {"firstTimestamp"}, FormatRfc3339(time));
}

void Event::SetLastTimestamp(Timestamp time) {
    internal::SetString(*this, {"lastTimestamp"}, FormatRfc3339(time));
}

void Event::SetEventTime(Timestamp time) {
    internal::SetString(*this, {"eventTime"}, FormatRfc3339Micro(time));
}

void Event::SetSource(const EventSource& source) {
    internal::Remove(*this, {"source"});
    if (!source.component.empty())
        internal::SetString(*this, {"source", "component"}, source.component);
    if (!source.host.empty())
        internal::SetString(*this, {"source", "host"}, source.host);
}

void Event::SetReportingController(std::string_view controller) {
    internal::SetString(*this, {"reportingComponent"}, controller);
}

void Event::SetReportingInstance(std::string_view instance) {
    internal::SetString(*this, {"reportingInstance"}, instance);
}

void Event::SetAction(std::string_view action) {
    internal::SetString(*this, {"action"}, action);
}

}  // namespace ctrl::api
