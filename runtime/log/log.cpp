#include "ctrl/log/log.hpp"

#include <atomic>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <mutex>

#include "ctrl/core/json_string.hpp"

namespace ctrl::log {
namespace {

struct SinkSlot {
    std::mutex mu;
    std::shared_ptr<Sink> sink;
};

SinkSlot& Slot() {
    static SinkSlot* slot = new SinkSlot();  // never destroyed: logging works during static teardown
    return *slot;
}

std::shared_ptr<Sink> CurrentSink() {
    SinkSlot& slot = Slot();
    std::lock_guard lock(slot.mu);
    if (!slot.sink)
        slot.sink = NewTextSink(std::cerr);
    return slot.sink;
}

void AppendValueText(std::string& out, const Field& field) {
    if (field.quoted)
        AppendJsonString(out, field.value);
    else
        out += field.value;
}

struct TimeParts {
    std::tm tm{};
    long micros = 0;
};

TimeParts Split(std::chrono::system_clock::time_point time) {
    TimeParts parts;
    const auto since = time.time_since_epoch();
    const std::time_t secs = std::chrono::duration_cast<std::chrono::seconds>(since).count();
    parts.micros = static_cast<long>(std::chrono::duration_cast<std::chrono::microseconds>(since).count() % 1000000);
    gmtime_r(&secs, &parts.tm);
    return parts;
}

class StreamSink : public Sink {
  public:
    StreamSink(std::ostream& out, bool json) : out_(out), json_(json) {}

    void Write(const Record& record) override {
        std::string line = json_ ? Json(record) : Text(record);
        line.push_back('\n');
        std::lock_guard lock(mu_);
        out_ << line << std::flush;
    }

  private:
    static std::string Text(const Record& record) {
        const TimeParts t = Split(record.time);
        char head[64];
        std::snprintf(head, sizeof head, "%c%02d%02d %02d:%02d:%02d.%06ld ", record.is_error ? 'E' : 'I',
                      t.tm.tm_mon + 1, t.tm.tm_mday, t.tm.tm_hour, t.tm.tm_min, t.tm.tm_sec, t.micros);
        std::string line = head;
        line += record.logger.empty() ? std::string_view("ctrl") : record.logger;
        line += "] ";
        AppendJsonString(line, record.message);
        if (record.is_error) {
            line += " err=";
            AppendJsonString(line, record.error);
        }
        for (const Field& field : record.fields) {
            line.push_back(' ');
            line += field.key;
            line.push_back('=');
            AppendValueText(line, field);
        }
        return line;
    }

    static std::string Json(const Record& record) {
        const TimeParts t = Split(record.time);
        char ts[48];
        std::snprintf(ts, sizeof ts, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", t.tm.tm_year + 1900, t.tm.tm_mon + 1,
                      t.tm.tm_mday, t.tm.tm_hour, t.tm.tm_min, t.tm.tm_sec, t.micros);
        std::string line = "{\"level\":";
        if (record.is_error)
            line += "\"error\"";
        else if (record.verbosity == 0)
            line += "\"info\"";
        else
            line += "\"debug\",\"v\":" + std::to_string(record.verbosity);
        line += ",\"ts\":\"";
        line += ts;
        line += "\"";
        if (!record.logger.empty()) {
            line += ",\"logger\":";
            AppendJsonString(line, record.logger);
        }
        line += ",\"msg\":";
        AppendJsonString(line, record.message);
        if (record.is_error) {
            line += ",\"error\":";
            AppendJsonString(line, record.error);
        }
        for (const Field& field : record.fields) {
            line.push_back(',');
            AppendJsonString(line, field.key);
            line.push_back(':');
            AppendValueText(line, field);
        }
        line.push_back('}');
        return line;
    }

    std::mutex mu_;
    std::ostream& out_;
    const bool json_;
};

const char kLoggerKey = 0;

}  // namespace

struct Logger::State {
    std::string name;
    std::vector<Field> fields;
};

void AppendValue(Field& field, std::string_view v) {
    field.value.assign(v);
    field.quoted = true;
}

void AppendValue(Field& field, bool v) {
    field.value = v ? "true" : "false";
    field.quoted = false;
}

void AppendValue(Field& field, long long v) {
    field.value = std::to_string(v);
    field.quoted = false;
}

void AppendValue(Field& field, unsigned long long v) {
    field.value = std::to_string(v);
    field.quoted = false;
}

void AppendValue(Field& field, double v) {
    if (!std::isfinite(v)) {
        AppendValue(field, std::string_view(std::isnan(v) ? "NaN" : (v > 0 ? "+Inf" : "-Inf")));
        return;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    field.value = buf;
    field.quoted = false;
}

void AppendValue(Field& field, const Status& v) {
    AppendValue(field, std::string_view(v.ToString()));
}

void AppendValue(Field& field, Redacted v) {
    field.value = "<redacted";
    if (!v.what.empty()) {
        field.value += ' ';
        field.value += v.what;
    }
    field.value += '>';
    field.quoted = true;
}

void AppendValue(Field& field, std::chrono::nanoseconds v) {
    using std::chrono::duration;
    const double ns = static_cast<double>(v.count());
    char buf[32];
    if (v.count() == 0)
        std::snprintf(buf, sizeof buf, "0s");
    else if (std::abs(ns) < 1e3)
        std::snprintf(buf, sizeof buf, "%" PRId64 "ns", static_cast<int64_t>(v.count()));
    else if (std::abs(ns) < 1e6)
        std::snprintf(buf, sizeof buf, "%gµs", ns / 1e3);
    else if (std::abs(ns) < 1e9)
        std::snprintf(buf, sizeof buf, "%gms", ns / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%gs", ns / 1e9);
    field.value = buf;
    field.quoted = true;
}

Logger::Logger() {
    static const auto* const kRoot = new std::shared_ptr<const State>(std::make_shared<const State>());
    state_ = *kRoot;
}

Logger Logger::WithName(std::string_view name) const {
    auto next = std::make_shared<State>(*state_);
    if (!next->name.empty() && !name.empty())
        next->name.push_back('.');
    next->name += name;
    return Logger(std::move(next), verbosity_);
}

Logger Logger::WithFields(std::vector<Field> fields) const {
    auto next = std::make_shared<State>(*state_);
    for (Field& field : fields)
        next->fields.push_back(std::move(field));
    return Logger(std::move(next), verbosity_);
}

Logger Logger::V(int level) const {
    return Logger(state_, verbosity_ + (level > 0 ? level : 0));
}

void Logger::Write(bool is_error, std::string_view message, std::string_view error, std::vector<Field>& fields) const {
    if (!state_->fields.empty())
        fields.insert(fields.begin(), state_->fields.begin(), state_->fields.end());
    Record record;
    record.time = std::chrono::system_clock::now();
    record.verbosity = verbosity_;
    record.is_error = is_error;
    record.logger = state_->name;
    record.message = message;
    record.error = error;
    record.fields = fields;
    CurrentSink()->Write(record);
}

void SetVerbosity(int level) {
    internal::verbosity.store(level, std::memory_order_relaxed);
}

int Verbosity() {
    return internal::verbosity.load(std::memory_order_relaxed);
}

void SetSink(std::shared_ptr<Sink> sink) {
    SinkSlot& slot = Slot();
    std::lock_guard lock(slot.mu);
    slot.sink = std::move(sink);
}

std::shared_ptr<Sink> NewTextSink(std::ostream& out) {
    return std::make_shared<StreamSink>(out, false);
}

std::shared_ptr<Sink> NewJsonSink(std::ostream& out) {
    return std::make_shared<StreamSink>(out, true);
}

Logger FromContext(const Context& ctx) {
    if (auto value = ctx.Value(&kLoggerKey))
        return *static_cast<const Logger*>(value.get());
    return Logger();
}

Context IntoContext(const Context& parent, Logger logger) {
    return Context::WithValue(parent, &kLoggerKey, std::make_shared<const Logger>(std::move(logger)));
}

}  // namespace ctrl::log
