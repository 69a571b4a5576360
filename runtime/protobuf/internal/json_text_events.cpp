#include "ctrl/protobuf/internal/json_text_events.hpp"

#include <charconv>
#include <cstring>

#include "ctrl/protobuf/internal/go_json.hpp"

namespace ctrl::protobuf::internal {
namespace {

template <typename T>
void AppendNumber(std::string& out, T value) {
    char buf[24];
    const auto res = std::to_chars(buf, buf + sizeof buf, value);
    out.append(buf, res.ptr);
}

}  // namespace

void JsonTextEvents::StartObject() {
    Open('{');
}

void JsonTextEvents::EndObject() {
    Close('}');
}

void JsonTextEvents::StartArray() {
    Open('[');
}

void JsonTextEvents::EndArray() {
    Close(']');
}

void JsonTextEvents::FieldName(std::string_view name) {
    const std::size_t size = out_.size();
    out_.resize(size + name.size() + (need_comma_ ? 4 : 3));
    char* at = out_.data() + size;
    if (need_comma_)
        *at++ = ',';
    *at++ = '"';
    std::memcpy(at, name.data(), name.size());
    at[name.size()] = '"';
    at[name.size() + 1] = ':';
    need_comma_ = false;
}

void JsonTextEvents::Key(std::string_view name) {
    Separate();
    AppendGoString(out_, name);
    out_ += ':';
    need_comma_ = false;
}

void JsonTextEvents::String(std::string_view value) {
    Separate();
    AppendGoString(out_, value);
    need_comma_ = true;
}

void JsonTextEvents::Int64(std::int64_t value) {
    Separate();
    AppendNumber(out_, value);
    need_comma_ = true;
}

void JsonTextEvents::Uint64(std::uint64_t value) {
    Separate();
    AppendNumber(out_, value);
    need_comma_ = true;
}

void JsonTextEvents::Bool(bool value) {
    Separate();
    out_ += value ? "true" : "false";
    need_comma_ = true;
}

void JsonTextEvents::Null() {
    Separate();
    out_ += "null";
    need_comma_ = true;
}

bool JsonTextEvents::RawJson(std::string_view json) {
    Separate();
    need_comma_ = true;
    return AppendCompactJson(out_, json);
}

}  // namespace ctrl::protobuf::internal
