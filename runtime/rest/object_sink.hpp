#pragma once

#include <cstdint>
#include <string_view>

#include "ctrl/rest/watch_event.hpp"

namespace ctrl::rest {

// Receives a watch event's object as the values its JSON is made of (a SAX interface), for a
// consumer that keeps objects in a form of its own (the cache's compact form): the decoder then
// builds no Object for that event. Values come in document order, each member's Key before its
// value; strings and keys are unescaped, valid UTF-8 (invalid bytes replaced by U+FFFD as the API
// server's JSON shows them); views live during the call only.
//
// A decoder asks Takes for each event it could send here: protobuf events, and JSON events that its
// fast parser (simdjson) reads; a JSON event only the fallback parser reads is built into
// WatchEvent::object as usual (WatchEvent::object_in_sink says which happened).
class WatchObjectSink {
  public:
    virtual ~WatchObjectSink() = default;

    // Whether the object of an event of this type is to be written here.
    virtual bool Takes(WatchEvent::Type type) = 0;
    // An object starts (its StartObject follows). Whatever an unfinished object wrote is dropped.
    virtual void Begin() = 0;
    // The object that Begin started is complete (ok), or abandoned: its event was malformed, and the
    // decoder returns the error instead of the event.
    virtual void Finish(bool ok) = 0;

    virtual void StartObject() = 0;
    virtual void Key(std::string_view name) = 0;
    virtual void EndObject(std::uint32_t members) = 0;
    virtual void StartArray() = 0;
    virtual void EndArray(std::uint32_t elements) = 0;
    virtual void String(std::string_view value) = 0;
    virtual void Int64(std::int64_t value) = 0;
    virtual void Uint64(std::uint64_t value) = 0;
    virtual void Double(double value) = 0;
    virtual void Bool(bool value) = 0;
    virtual void Null() = 0;

    // A value inside the object that it holds as JSON text (managedFields' FieldsV1): true when the
    // sink wrote that value itself (objects of a kind repeat these texts, and a sink may remember
    // what one made), and the decoder then skips it. Otherwise its values follow as usual, then
    // JsonTextEnd with the same text once they were all written.
    virtual bool JsonText(std::string_view json) {
        static_cast<void>(json);
        return false;
    }
    virtual void JsonTextEnd(std::string_view json) { static_cast<void>(json); }
};

}  // namespace ctrl::rest
