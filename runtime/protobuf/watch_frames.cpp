#include "runtime/protobuf/watch_frames.hpp"

namespace ctrl::protobuf {

StatusOr<std::optional<std::string_view>> WatchFrameReader::Next() {
    if (consumed_ > 0 && consumed_ * 2 >= buffer_.size()) {
        buffer_.erase(0, consumed_);
        consumed_ = 0;
    }
    if (buffer_.size() - consumed_ < 4) {
        return std::optional<std::string_view>();
    }
    const auto* p = reinterpret_cast<const unsigned char*>(buffer_.data() + consumed_);
    const std::size_t length = (std::size_t{p[0]} << 24) | (std::size_t{p[1]} << 16) | (std::size_t{p[2]} << 8) | p[3];
    if (length > max_frame_) {
        return BadRequestError("protobuf watch frame of " + std::to_string(length) + " bytes exceeds the maximum of " +
                               std::to_string(max_frame_));
    }
    if (buffer_.size() - consumed_ - 4 < length) {
        return std::optional<std::string_view>();
    }
    const std::string_view frame(buffer_.data() + consumed_ + 4, length);
    consumed_ += 4 + length;
    return std::optional<std::string_view>(frame);
}

}  // namespace ctrl::protobuf
