#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "ctrl/core/internal/json.hpp"

namespace ctrl::cel::internal {

using ctrl::internal::JsonValue;

class Value;

// A CEL null.
struct Null {
    bool operator==(const Null&) const = default;
};
// A span of time (google.protobuf.Duration), in nanoseconds.
struct Duration {
    int64_t nanos = 0;
    bool operator==(const Duration&) const = default;
};
// An evaluation error. CEL treats it as a value: `false && error` is false.
struct Error {
    std::string message;
};
// A list built during evaluation (a literal, filter, map, split).
using List = std::shared_ptr<const std::vector<Value>>;
// A map built during evaluation (a literal): entries in insertion order, keys distinct.
using Map = std::shared_ptr<const std::vector<std::pair<Value, Value>>>;
// A JSON array or object inside the document being validated (scalars are converted on reading),
// and the schema defaults that apply under it: the API server validates a defaulted object, so a
// field absent from the document but defaulted by the schema reads as its default. A defaults node
// is a JSON object: "=" holds the node's own default, a property name the property's node, "[]"
// the array items' node, "{}" the map values' node; nullptr when nothing under it is defaulted.
struct JsonRef {
    const JsonValue* value = nullptr;
    const JsonValue* defaults = nullptr;
};

// One CEL value: what an expression evaluates to.
class Value {
  public:
    using Rep = std::variant<Null, bool, int64_t, uint64_t, double, std::string, Duration, List, Map, JsonRef, Error>;

    Value() : rep_(Null{}) {}
    Value(Rep rep) : rep_(std::move(rep)) {}  // NOLINT(google-explicit-constructor)
    // A JSON value: scalars become CEL scalars, arrays and objects stay references into the document
    // (with the defaults node that applies under them, or nullptr).
    static Value FromJson(const JsonValue& json, const JsonValue* defaults = nullptr);
    static Value Fail(std::string message) { return Value(Error{std::move(message)}); }

    const Rep& rep() const { return rep_; }
    template <typename T>
    bool Is() const {
        return std::holds_alternative<T>(rep_);
    }
    template <typename T>
    const T& As() const {
        return std::get<T>(rep_);
    }
    bool IsError() const { return Is<Error>(); }
    bool IsList() const;
    bool IsMap() const;
    bool IsNumber() const { return Is<int64_t>() || Is<uint64_t>() || Is<double>(); }
    // "int", "string", "list", "map", ...: CEL's type names, for messages.
    std::string_view TypeName() const;

  private:
    Rep rep_;
};

// A list's length and elements (a List or a JSON array).
std::size_t ListSize(const Value& list);
Value ListAt(const Value& list, std::size_t index);
// A map's keys in order (a Map's, or a JSON object's member names, then its defaulted absent ones).
std::vector<Value> MapKeys(const Value& map);
// The value under key, or nullopt when the map has no such key. A JSON member that is null counts
// as absent, as `has()` sees it; an absent member with a schema default reads as the default.
std::optional<Value> MapFind(const Value& map, const Value& key);

// CEL equality: numbers compare by value across int, uint and double; values of different types are
// unequal; lists and maps compare element by element.
bool Equal(const Value& a, const Value& b);
// -1, 0 or 1; nullopt when the two cannot be ordered (different types, NaN).
std::optional<int> Compare(const Value& a, const Value& b);
// The number as a double (int, uint or double).
double AsDouble(const Value& number);

// "1h30m", "-1.5s", "300ms" (Go's time.ParseDuration, as CEL's duration() reads it).
std::optional<Duration> ParseDuration(std::string_view text);
// A Duration as CEL prints it: seconds with up to 9 decimals, "90s", "1.5s".
std::string FormatDuration(Duration duration);

}  // namespace ctrl::cel::internal
