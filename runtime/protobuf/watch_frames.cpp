#include "ctrl/protobuf/watch_frames.hpp"

namespace ctrl::protobuf {

StatusOr<std::optional<std::string_view>> WatchFrameReader::Next() {
    if (consumed_ > 0 && consumed_ * 2 >= buffer_.size()) {
        buffer_.erase(0, consumed_);
        consumed_ = 0;
    }
    if (buffer_.size() - consumed_ < kFrameLengthBytes) {
        return std::optional<std::string_view>();
    }
    const std::size_t length = FrameLength(std::string_view(buffer_).substr(consumed_, kFrameLengthBytes));
    if (length > max_frame_) {
        return BadRequestError("protobuf watch frame of " + std::to_string(length) + " bytes exceeds the maximum of " +
                               std::to_string(max_frame_));
    }
    if (buffer_.size() - consumed_ - kFrameLengthBytes < length) {
        return std::optional<std::string_view>();
    }
    const std::string_view frame(buffer_.data() + consumed_ + kFrameLengthBytes, length);
    consumed_ += kFrameLengthBytes + length;
    return std::optional<std::string_view>(frame);
}

}  // namespace ctrl::protobuf
