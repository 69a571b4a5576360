#pragma once

#include <string>
#include <string_view>

#include "ctrl/protobuf/json_events.hpp"

// JsonEvents written as text. Internal to ctrl::protobuf.
namespace ctrl::protobuf::internal {

// Appends the values it receives to `out` as the compact JSON text encoding/json writes (the API
// server's encoder): Go's string escaping, raw JSON compacted.
class JsonTextEvents final : public JsonEvents {
  public:
    explicit JsonTextEvents(std::string& out) : out_(out) {}

    void StartObject() override;
    void EndObject() override;
    void StartArray() override;
    void EndArray() override;
    void FieldName(std::string_view name) override;
    void Key(std::string_view name) override;
    void String(std::string_view value) override;
    void Int64(std::int64_t value) override;
    void Uint64(std::uint64_t value) override;
    void Bool(bool value) override;
    void Null() override;
    [[nodiscard]] bool RawJson(std::string_view json) override;

  private:
    // The comma before a value or member that follows another in its container.
    void Separate() {
        if (need_comma_)
            out_ += ',';
    }
    // An object's or array's first and last character.
    void Open(char bracket) {
        Separate();
        out_ += bracket;
        need_comma_ = false;
    }
    void Close(char bracket) {
        out_ += bracket;
        need_comma_ = true;
    }

    std::string& out_;
    bool need_comma_ = false;
};

}  // namespace ctrl::protobuf::internal
