#pragma once

#include <cstdint>

#include "ctrl/core/internal/json.hpp"
#include "ctrl/rest/object_sink.hpp"

namespace ctrl::rest::internal {

// A RapidJSON-style SAX handler that forwards to a WatchObjectSink, so that what walks a parsed
// value for a document (EmitSimdjson) writes it to a sink instead: a JSON watch event's object, or
// the JSON text inside a protobuf one. It accepts every value.
class SinkHandler {
  public:
    explicit SinkHandler(WatchObjectSink& sink) : sink_(sink) {}

    bool Null() { return sink_.Null(), true; }
    bool Bool(bool value) { return sink_.Bool(value), true; }
    bool Int(int value) { return sink_.Int64(value), true; }
    bool Uint(unsigned value) { return sink_.Uint64(value), true; }
    bool Int64(std::int64_t value) { return sink_.Int64(value), true; }
    bool Uint64(std::uint64_t value) { return sink_.Uint64(value), true; }
    bool Double(double value) { return sink_.Double(value), true; }
    bool RawNumber(const char*, rapidjson::SizeType, bool) { return false; }  // never asked for
    bool String(const char* text, rapidjson::SizeType size, bool) { return sink_.String({text, size}), true; }
    bool StartObject() { return sink_.StartObject(), true; }
    bool Key(const char* text, rapidjson::SizeType size, bool) { return sink_.Key({text, size}), true; }
    bool EndObject(rapidjson::SizeType members) { return sink_.EndObject(members), true; }
    bool StartArray() { return sink_.StartArray(), true; }
    bool EndArray(rapidjson::SizeType elements) { return sink_.EndArray(elements), true; }

  private:
    WatchObjectSink& sink_;
};

}  // namespace ctrl::rest::internal
