#pragma once

#include <atomic>
#include <chrono>
#include <concepts>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"

namespace ctrl::log {

namespace internal {
// The process verbosity (SetVerbosity): inline so that a disabled V line costs one relaxed load.
inline std::atomic<int> verbosity{0};
}  // namespace internal

// One key-value pair of a log line. Strings are quoted by the sinks; numbers and booleans are not.
struct Field {
    std::string key;
    std::string value;
    bool quoted = true;
};

// A log line as a sink receives it.
struct Record {
    std::chrono::system_clock::time_point time;
    int verbosity = 0;        // the V-level the line was logged at (0 for Info and Error)
    bool is_error = false;    // logged with Error
    std::string_view logger;  // dotted name: "cache.informer"
    std::string_view message;
    std::string_view error;  // the Status of an Error line, "" otherwise
    std::span<const Field> fields;
};

// Where log lines go (stderr by default). Implementations are thread-safe.
class Sink {
  public:
    virtual ~Sink() = default;
    virtual void Write(const Record& record) = 0;
};

// A value that must never be printed (a token, a key, Secret data): logged as "<redacted>".
struct Redacted {
    std::string_view what;
};

// Renders v into field (the overload set sinks rely on). Extend by overloading
// AppendValue(Field&, const YourType&) in ctrl::log or your type's namespace.
void AppendValue(Field& field, std::string_view v);
inline void AppendValue(Field& field, const std::string& v) {
    AppendValue(field, std::string_view(v));
}
inline void AppendValue(Field& field, const char* v) {
    AppendValue(field, std::string_view(v ? v : ""));
}
void AppendValue(Field& field, bool v);
void AppendValue(Field& field, long long v);
void AppendValue(Field& field, unsigned long long v);
void AppendValue(Field& field, double v);
void AppendValue(Field& field, const Status& v);
void AppendValue(Field& field, Redacted v);
void AppendValue(Field& field, std::chrono::nanoseconds v);  // Go's duration text: "1.5s", "250ms"
template <std::integral I>
requires(!std::same_as<I, bool>) void AppendValue(Field& field, I v) {
    if constexpr (std::is_signed_v<I>)
        AppendValue(field, static_cast<long long>(v));
    else
        AppendValue(field, static_cast<unsigned long long>(v));
}
template <std::floating_point F>
void AppendValue(Field& field, F v) {
    AppendValue(field, static_cast<double>(v));
}
template <typename Rep, typename Period>
requires(!std::same_as<std::chrono::duration<Rep, Period>, std::chrono::nanoseconds>) void AppendValue(
    Field& field, std::chrono::duration<Rep, Period> v) {
    AppendValue(field, std::chrono::duration_cast<std::chrono::nanoseconds>(v));
}
template <typename T>
struct IsDuration : std::false_type {};
template <typename Rep, typename Period>
struct IsDuration<std::chrono::duration<Rep, Period>> : std::true_type {};
// Anything else printable with operator<< (GroupVersionKind, ObjectKey, ...), as a quoted string.
template <typename T>
requires(!std::is_arithmetic_v<T> && !std::is_convertible_v<const T&, std::string_view> && !IsDuration<T>::value &&
         !std::same_as<T, Status> && !std::same_as<T, Redacted> &&
         requires(std::ostream & os, const T& t) { os << t; }) void AppendValue(Field& field, const T& v) {
    std::ostringstream os;
    os << v;
    AppendValue(field, std::string_view(os.str()));
}

// A named, leveled, structured logger (logr's Logger): `log.Info("relisting", "reason", why)`.
// Key-value pairs alternate key (a string) and value. Cheap to copy; a line below the process
// verbosity costs one integer compare. V(n) lines are written when n <= Verbosity(); Error lines
// always are. Thread-safe.
class Logger {
  public:
    // The process logger: no name, no values.
    Logger();

    // A logger whose lines carry name appended to this one's ("cache" then "cache.informer").
    Logger WithName(std::string_view name) const;
    // A logger whose lines carry these key-value pairs before their own.
    template <typename... KV>
    Logger WithValues(const KV&... kv) const {
        static_assert(sizeof...(KV) % 2 == 0, "WithValues takes key-value pairs");
        std::vector<Field> fields;
        AppendPairs(fields, kv...);
        return WithFields(std::move(fields));
    }
    // A logger for detail at verbosity level (added to this one's).
    Logger V(int level) const;
    // Whether a line of this logger would be written now. Guard a line whose values are costly to
    // compute: `if (auto v = log.V(4); v.Enabled()) v.Info("page", "items", Count());`. (Info
    // itself formats nothing when disabled, but its arguments are evaluated by the caller.)
    bool Enabled() const { return verbosity_ <= internal::verbosity.load(std::memory_order_relaxed); }
    // Whether this logger's V(level) would write now, without making that logger.
    bool Enabled(int level) const {
        return verbosity_ + (level > 0 ? level : 0) <= internal::verbosity.load(std::memory_order_relaxed);
    }

    template <typename... KV>
    void Info(std::string_view message, const KV&... kv) const {
        static_assert(sizeof...(KV) % 2 == 0, "Info takes key-value pairs after the message");
        if (!Enabled())
            return;
        std::vector<Field> fields;
        AppendPairs(fields, kv...);
        Write(false, message, {}, fields);
    }
    template <typename... KV>
    void Error(const Status& error, std::string_view message, const KV&... kv) const {
        static_assert(sizeof...(KV) % 2 == 0, "Error takes key-value pairs after the message");
        std::vector<Field> fields;
        AppendPairs(fields, kv...);
        Write(true, message, error.ToString(), fields);
    }

  private:
    struct State;
    Logger(std::shared_ptr<const State> state, int verbosity) : state_(std::move(state)), verbosity_(verbosity) {}
    Logger WithFields(std::vector<Field> fields) const;
    void Write(bool is_error, std::string_view message, std::string_view error, std::vector<Field>& fields) const;

    static void AppendPairs(std::vector<Field>&) {}
    template <typename K, typename V, typename... Rest>
    static void AppendPairs(std::vector<Field>& fields, const K& key, const V& value, const Rest&... rest) {
        Field field;
        field.key = std::string(std::string_view(key));
        AppendValue(field, value);
        fields.push_back(std::move(field));
        AppendPairs(fields, rest...);
    }

    std::shared_ptr<const State> state_;
    int verbosity_ = 0;
};

// The process-wide verbosity: V(n) lines with n <= level are written (default 0). Settable at
// run time from any thread.
void SetVerbosity(int level);
int Verbosity();

// Replaces the process sink (default: NewTextSink to stderr); null restores the default.
void SetSink(std::shared_ptr<Sink> sink);
// klog-like text lines: `I1203 07:55:00.123456 cache.informer] "message" key="value" n=3`.
std::shared_ptr<Sink> NewTextSink(std::ostream& out);
// One JSON object a line, as zap's production encoder writes them:
// {"level":"info","ts":"2026-12-03T07:55:00.123456Z","logger":"cache","msg":"...","key":"value"}.
std::shared_ptr<Sink> NewJsonSink(std::ostream& out);

// The logger a Context carries (set by IntoContext), or the process logger.
Logger FromContext(const Context& ctx);
// A child of parent that carries logger; cancelling parent cancels it.
Context IntoContext(const Context& parent, Logger logger);

}  // namespace ctrl::log
