#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include <pplx/pplxtasks.h>

#include "ctrl/core/status.hpp"

namespace ctrl::rest::internal::cpprest {

// The body of one cpprestsdk response on its way from cpprestsdk's thread pool (the producer,
// through CppRestBodySink) to one coroutine (the consumer). Bounded: once more than `limit` bytes
// wait unread, the producer's Push does not complete until the consumer has drained them to half
// of that; cpprestsdk waits for that before it reads the socket again, so a slow reader holds the
// server back through TCP flow control instead of growing memory. At most limit plus one block
// (an HTTP chunk, or cpprestsdk's 64 KiB read) is held. Thread-safe.
class BodyQueue final {
  public:
    static constexpr std::size_t kUnbounded = SIZE_MAX;

    explicit BodyQueue(std::size_t limit) : limit_(limit) {}

    // Producer: appends a copy of the bytes. The task completes when there is room again.
    pplx::task<std::size_t> Push(const uint8_t* data, std::size_t size);
    // Producer: the body ended, cleanly (OK) or not. Only the first call counts.
    void Finish(Status status);

    // What TryRead found.
    struct Read {
        std::size_t bytes = 0;  // copied into the caller's buffer
        bool ended = false;     // nothing buffered and the body ended with `status`
        Status status;
    };
    // Consumer: copies what is buffered (at most size bytes) without waiting.
    Read TryRead(char* data, std::size_t size);
    // Consumer: calls `wake` once, from any thread, when bytes are buffered or the body has ended
    // (at once when that is already so). Replaces an earlier registration.
    void NotifyOnData(std::function<void()> wake);
    // Consumer: the whole body once it has ended (for a complete response).
    std::string TakeAll();
    // Consumer: stops the queue for good: drops buffered and later bytes, never blocks the
    // producer again, and ends the body with `reason` unless it had already ended.
    void Abandon(Status reason);

  private:
    std::size_t UnreadLocked() const { return buffer_.size() - read_pos_; }

    const std::size_t limit_;
    std::mutex mu_;
    std::string buffer_;
    std::size_t read_pos_ = 0;
    bool ended_ = false;
    bool abandoned_ = false;
    Status status_;
    std::optional<pplx::task_completion_event<std::size_t>> blocked_;  // the producer's pending Push
    std::size_t blocked_size_ = 0;
    std::function<void()> wake_;
};

}  // namespace ctrl::rest::internal::cpprest
