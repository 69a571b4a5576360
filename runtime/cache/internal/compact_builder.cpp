#include "ctrl/cache/internal/compact_builder.hpp"

#include <functional>
#include <utility>

namespace ctrl::cache::internal {

namespace {

// The builder's buffer is kept for the next object unless one object made it grow past this.
constexpr std::size_t kKeptBufferBytes = std::size_t{256} << 10;
// JSON text values remembered: slots (a power of two), and the sizes worth it (a short text costs
// little to parse; a long one would hold much memory).
constexpr std::size_t kRememberedTexts = 64;
constexpr std::size_t kMinRememberedBytes = 32;
constexpr std::size_t kMaxRememberedBytes = std::size_t{16} << 10;

std::size_t TextSlot(std::string_view json) {
    return std::hash<std::string_view>{}(json) & (kRememberedTexts - 1);
}

}  // namespace

CompactBuilder::~CompactBuilder() = default;

std::optional<BuiltObject> CompactBuilder::Take() {
    std::optional<BuiltObject> taken = std::move(built_);
    built_.reset();
    return taken;
}

void CompactBuilder::Begin() {
    if (!lock_.owns_lock())
        lock_ = strings_.Lock();
    strings_.NextObjectLocked();
    out_.Clear();
    writer_.emplace(strings_, out_);
    open_.clear();
    metadata_depth_ = 0;
    field_ = Field::kOther;
    seen_metadata_ = seen_namespace_ = seen_name_ = false;
    in_text_ = false;
    building_ = BuiltObject{};
    built_.reset();
}

void CompactBuilder::Finish(bool ok) {
    if (ok && writer_ && open_.empty() && out_.size() > 0) {
        building_.value = CompactValue::FromBytes(std::string_view(out_.data(), out_.size()));
        built_ = std::move(building_);
    }
    building_ = BuiltObject{};
    writer_.reset();
    out_.ReleaseIfOver(kKeptBufferBytes);
    if (lock_.owns_lock())
        lock_.unlock();
}

void CompactBuilder::StartObject() {
    const bool opens_metadata = field_ == Field::kMetadata;
    field_ = Field::kOther;
    open_.push_back(writer_->Open());
    if (opens_metadata)
        metadata_depth_ = open_.size();
}

void CompactBuilder::Key(std::string_view name) {
    writer_->Name(name);
    // As Object's accessors read them: the first metadata of the root, the first name and namespace in it.
    field_ = Field::kOther;
    if (open_.size() == 1 && !seen_metadata_ && name == "metadata") {
        seen_metadata_ = true;
        field_ = Field::kMetadata;
    } else if (metadata_depth_ != 0 && open_.size() == metadata_depth_) {
        if (!seen_namespace_ && name == "namespace") {
            seen_namespace_ = true;
            field_ = Field::kNamespace;
        } else if (!seen_name_ && name == "name") {
            seen_name_ = true;
            field_ = Field::kName;
        }
    }
}

void CompactBuilder::EndObject(std::uint32_t members) {
    writer_->Close(open_.back(), compact::kObject, members);
    open_.pop_back();
    if (open_.size() < metadata_depth_)
        metadata_depth_ = 0;
}

void CompactBuilder::StartArray() {
    field_ = Field::kOther;
    open_.push_back(writer_->Open());
}

void CompactBuilder::EndArray(std::uint32_t elements) {
    writer_->Close(open_.back(), compact::kArray, elements);
    open_.pop_back();
}

void CompactBuilder::String(std::string_view value) {
    if (field_ == Field::kNamespace)
        building_.namespace_name = value;
    else if (field_ == Field::kName)
        building_.name = value;
    field_ = Field::kOther;
    text_has_string_ = text_has_string_ || in_text_;
    writer_->String(value);
}

bool CompactBuilder::JsonText(std::string_view json) {
    field_ = Field::kOther;
    in_text_ = false;
    if (json.size() < kMinRememberedBytes || json.size() > kMaxRememberedBytes)
        return false;
    if (texts_.empty())
        texts_.resize(kRememberedTexts);
    const RememberedText& remembered = texts_[TextSlot(json)];
    if (!remembered.bytes.empty() && remembered.json == json) {
        out_.Append(remembered.bytes);
        writer_->SkippedNames(remembered.names);
        ++texts_reused_;
        return true;
    }
    in_text_ = true;
    text_has_string_ = false;
    text_start_ = out_.size();
    text_names_ = writer_->NamesWritten();
    return false;
}

void CompactBuilder::JsonTextEnd(std::string_view json) {
    const bool remember = in_text_ && !text_has_string_;
    in_text_ = false;
    if (!remember)
        return;
    RememberedText& slot = texts_[TextSlot(json)];
    slot.json.assign(json);
    slot.bytes.assign(out_.data() + text_start_, out_.size() - text_start_);
    slot.names = writer_->NamesWritten() - text_names_;
}

}  // namespace ctrl::cache::internal
