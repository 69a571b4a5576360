#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/cache/internal/compact_value.hpp"
#include "ctrl/cache/internal/compact_writer.hpp"
#include "ctrl/cache/internal/intern_table.hpp"
#include "ctrl/rest/object_sink.hpp"

namespace ctrl::cache::internal {

// An object a CompactBuilder wrote: its compact form and its metadata's namespace and name.
struct BuiltObject {
    std::string namespace_name;
    std::string name;
    CompactValue value;
};

// Writes a watch stream's objects straight into the compact form a store keeps, from the values
// the decoder reads (rest::WatchObjectSink), so no Object is built for them: the same bytes
// CompactValue::Encode writes for the Object the event would have made. It takes ADDED events only
// (a list's objects, streamed); and notes metadata.namespace and metadata.name on the way, for the
// store's key. One object at a time: the table's lock is held from Begin to Finish.
class CompactBuilder final : public rest::WatchObjectSink {
  public:
    explicit CompactBuilder(InternTable& strings) : strings_(strings) {}
    ~CompactBuilder() override;

    // The object the last Finish(true) completed; nullopt when none is waiting (taken already, or
    // abandoned).
    std::optional<BuiltObject> Take();

    bool Takes(rest::WatchEvent::Type type) override { return type == rest::WatchEvent::Type::kAdded; }
    void Begin() override;
    void Finish(bool ok) override;

    void StartObject() override;
    void Key(std::string_view name) override;
    void EndObject(std::uint32_t members) override;
    void StartArray() override;
    void EndArray(std::uint32_t elements) override;
    void String(std::string_view value) override;
    void Int64(std::int64_t value) override { Scalar(), writer_->Int64(value); }
    void Uint64(std::uint64_t value) override { Scalar(), writer_->Uint64(value); }
    void Double(double value) override { Scalar(), writer_->Double(value); }
    void Bool(bool value) override { Scalar(), writer_->Bool(value); }
    void Null() override { Scalar(), writer_->Null(); }
    bool JsonText(std::string_view json) override;
    void JsonTextEnd(std::string_view json) override;

    // How many JSON text values were written from memory (for tests and benchmarks).
    std::size_t TextsReused() const { return texts_reused_; }

  private:
    // A JSON text value (FieldsV1) and the bytes it made: the same text makes the same bytes again
    // while the table lives, as its names keep their ids (or stay inline) and it holds no string
    // value (whose interning depends on what came before).
    struct RememberedText {
        std::string json;
        std::string bytes;
        std::size_t names = 0;
    };

    // Where the member being written sits, as far as the key needs: metadata and its two strings.
    enum class Field : uint8_t { kOther, kMetadata, kNamespace, kName };

    void Scalar() { field_ = Field::kOther; }

    InternTable& strings_;
    std::unique_lock<std::mutex> lock_;
    ByteBuffer out_;
    std::optional<CompactWriter> writer_;
    std::vector<std::size_t> open_;   // where each open container's tag is
    std::size_t metadata_depth_ = 0;  // containers open when metadata's object opened; 0: not inside
    Field field_ = Field::kOther;     // what the last Key named
    bool seen_metadata_ = false;      // the first of each counts, as Object's accessors read them
    bool seen_namespace_ = false;
    bool seen_name_ = false;
    BuiltObject building_;
    std::optional<BuiltObject> built_;
    std::vector<RememberedText> texts_;  // by hash of the text, direct-mapped
    std::size_t text_start_ = 0;         // where the text value being written began in out_
    std::size_t text_names_ = 0;         // names written before it
    bool in_text_ = false;               // a text value's values are being written
    bool text_has_string_ = false;       // ... and one was a string value
    std::size_t texts_reused_ = 0;
};

}  // namespace ctrl::cache::internal
