#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"

namespace ctrl::protobuf {

// Bytes of a frame's length prefix, and the length that prefix (big-endian) announces.
inline constexpr std::size_t kFrameLengthBytes = 4;
inline std::size_t FrameLength(std::string_view prefix) {
    const auto* p = reinterpret_cast<const unsigned char*>(prefix.data());
    return (std::size_t{p[0]} << 24) | (std::size_t{p[1]} << 16) | (std::size_t{p[2]} << 8) | p[3];
}

// Splits a protobuf watch stream (Accept: application/vnd.kubernetes.protobuf;stream=watch) into
// its frames: each a 4-byte big-endian length and that many bytes of a metav1.WatchEvent (see
// AppendJsonForWatchEvent). Feed it the body as it arrives, in pieces of any size.
class WatchFrameReader final {
  public:
    static constexpr std::size_t kDefaultMaxFrame = 64u << 20;

    explicit WatchFrameReader(std::size_t max_frame = kDefaultMaxFrame) : max_frame_(max_frame) {}

    void Append(std::string_view bytes) { buffer_.append(bytes); }
    // The next whole frame, or nullopt until more bytes arrive. The view is valid until the next
    // call. BadRequest for a frame longer than the maximum.
    StatusOr<std::optional<std::string_view>> Next();
    // Bytes received and not yet returned in a frame (non-zero at the end: a cut stream).
    std::size_t Pending() const { return buffer_.size() - consumed_; }

  private:
    std::size_t max_frame_;
    std::string buffer_;
    std::size_t consumed_ = 0;
};

}  // namespace ctrl::protobuf
