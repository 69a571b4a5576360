#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/watch_event.hpp"

namespace ctrl::rest {

class WatchObjectSink;

// Limits and tuning of a WatchDecoder. Every field says its default.
struct WatchDecoderOptions {
    // The longest event line accepted, in bytes without the newline; a longer one is BadRequest. Default 64 MiB.
    std::size_t max_event_bytes = std::size_t{64} << 20;
    // Events up to this size are parsed by the fast path (simdjson, then built into the Object: 2-3x faster than
    // RapidJSON alone); larger ones by RapidJSON alone. The fast path's scratch memory, one per thread, grows to ~14x
    // the largest event it parsed, so this bounds it. 0 turns the fast path off. Default 256 KiB.
    std::size_t fast_path_max_event_bytes = std::size_t{256} << 10;
    // Build each event's object without metadata.managedFields, for a consumer that drops them anyway
    // (a cache with the default transform): they are often half of an object's bytes, and the fast path
    // then never builds them. Default false: objects as the server sent them.
    bool drop_managed_fields = false;
    // The body is a Kubernetes protobuf watch stream (Content-Type
    // application/vnd.kubernetes.protobuf;stream=watch): frames of a 4-byte big-endian length and a
    // metav1.WatchEvent, each built into the object the exact JSON the server would have sent makes
    // (ctrl::protobuf writes its values, with no JSON text between). A frame the transcoder cannot read (a kind or a
    // field it does not know, broken bytes) is BadRequest. WatchStream sets it from the response's
    // content type. Default false: newline-delimited JSON.
    bool protobuf = false;
};

// Decodes a watch response body incrementally: newline-delimited JSON events
// {"type":"ADDED","object":{...}} fed in chunks of any size, so an event may be split across chunks
// and a chunk may hold several. Empty lines and CRLF line ends are tolerated. Each event's object is
// parsed straight into its own Object (own small pool, no intermediate copy).
//
// Memory is bounded: the buffer holds the unread complete events and one unfinished event of at most
// max_event_bytes, and it compacts (and shrinks after a large event) as events are read, so it does not
// grow with the length of the stream — provided the caller drains Next() before feeding more, as
// WatchStream does.
//
// Errors are BadRequest naming the byte offset in the stream (malformed JSON, with a short snippet;
// an unknown type; a missing object; an event over the limit, naming it) and are sticky: every later
// call returns the same error. Not thread-safe; movable.
class WatchDecoder {
  public:
    explicit WatchDecoder(WatchDecoderOptions options = {});
    ~WatchDecoder();
    WatchDecoder(WatchDecoder&&) noexcept;
    WatchDecoder& operator=(WatchDecoder&&) noexcept;

    // Appends the next bytes of the body (copying them). BadRequest when the unfinished event at the
    // end grows beyond max_event_bytes.
    Status Feed(std::string_view bytes);
    // Zero-copy feeding: room for up to `size` more bytes at the end of the buffer. Write the body into it,
    // then Commit how many bytes were written (at most size). The span is valid until the next call of a
    // non-const method.
    std::span<char> Prepare(std::size_t size);
    Status Commit(std::size_t size);
    // Marks the end of the body. Next then returns the remaining events, a last one that lacks its
    // newline included, then nullopt for good; Unavailable ("watch stream ended mid-event after N bytes")
    // when the body ended inside an event. Feeding after Finish is an Internal error.
    void Finish();

    // The next complete event, or nullopt when more bytes are needed (or, after Finish, at the end).
    // With a sink, an event whose type the sink Takes writes its object there instead
    // (WatchEvent::object_in_sink): every protobuf one, and a JSON one simdjson reads (one only
    // RapidJSON reads, e.g. an integer beyond 64 bits, builds its Object); a sink's object that the
    // event then fails is Finished not ok.
    StatusOr<std::optional<WatchEvent>> Next(WatchObjectSink* sink = nullptr);

    // Bytes of the body fed so far.
    std::uint64_t BytesFed() const { return buffer_offset_ + end_; }
    // Bytes held that Next has not consumed: complete events and the unfinished one.
    std::size_t BufferedBytes() const { return end_ - begin_; }
    // Bytes the buffer has allocated.
    std::size_t BufferCapacity() const { return capacity_; }

  private:
    // Makes room for size more bytes (plus the fast path's read-ahead padding) at end_.
    void Reserve(std::size_t size);
    // Decodes one line that starts at stream offset `offset`. Sets error_ on failure.
    StatusOr<std::optional<WatchEvent>> DecodeLine(std::string_view line, std::uint64_t offset, WatchObjectSink* sink);
    // Next for a protobuf stream: the next whole frame, decoded.
    StatusOr<std::optional<WatchEvent>> NextFrame(WatchObjectSink* sink);
    Status Fail(Status status);

    WatchDecoderOptions options_;
    std::unique_ptr<char[]> buffer_;
    std::size_t capacity_ = 0;
    std::size_t begin_ = 0;            // the first byte Next has not consumed
    std::size_t lines_end_ = 0;        // just past the last newline fed; begin_ when no complete line is held
    std::size_t end_ = 0;              // just past the last byte fed
    std::uint64_t buffer_offset_ = 0;  // the stream offset of buffer_[0]
    bool finished_ = false;
    Status error_;
};

// OK for an event that is not kError. For kError, the metav1.Status it carries as a Status: code 410
// (reason Expired or Gone) is Gone, the other codes and reasons map as the API's do (NotFound,
// Forbidden, TooManyRequests with Retry-After, Invalid with causes, ...), keeping the message, HTTP code
// and reason. An ERROR object that is no Status is Unknown.
Status StatusFromWatchEvent(const WatchEvent& event);

}  // namespace ctrl::rest
