#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/rest/transport.hpp"
#include "ctrl/rest/watch_decoder.hpp"
#include "ctrl/rest/watch_event.hpp"

namespace ctrl::rest {

// How a WatchStream reads. Every field says its default.
struct WatchStreamOptions {
    // Bytes asked of the body per read. Default 64 KiB.
    std::size_t read_block_bytes = std::size_t{64} << 10;
    // Limits of the decoder (default: 64 MiB per event).
    WatchDecoderOptions decoder;
};

// The events of one watch response, read as they arrive. It reads the body in blocks, straight into
// the decoder's buffer, and only when no complete event is buffered, so a slow consumer applies
// backpressure to the connection. An ERROR event is returned as an event (the caller decides what a 410
// means; StatusFromWatchEvent converts it). Not thread-safe: one Next at a time.
class WatchStream {
  public:
    explicit WatchStream(std::unique_ptr<BodyStream> body, WatchStreamOptions options = {});
    ~WatchStream();
    WatchStream(WatchStream&&) noexcept;
    WatchStream& operator=(WatchStream&&) noexcept;

    // The next event; nullopt when the body ended cleanly (and on every call after that). Errors:
    // BadRequest for a malformed event; Unavailable when the body ended mid-event ("watch stream ended
    // mid-event after N bytes") or the connection dropped; Timeout when the body was idle too long;
    // Cancelled when ctx is cancelled or the stream was closed. An error closes the stream and is
    // returned again by later calls. With a sink: as WatchDecoder::Next's.
    Task<StatusOr<std::optional<WatchEvent>>> Next(Context ctx, WatchObjectSink* sink = nullptr);
    // Stops the stream and releases its connection. Safe to call twice.
    void Close();

    // Bytes of the body read so far.
    std::uint64_t BytesRead() const { return decoder_.BytesFed(); }
    // Whether the server sent protobuf (transcoded into JSON events), from its Content-Type.
    bool Protobuf() const { return options_.decoder.protobuf; }
    // The response's HTTP status and headers.
    int StatusCode() const { return body_->StatusCode(); }
    const std::vector<Header>& Headers() const { return body_->Headers(); }

  private:
    Status Fail(Status status);

    std::unique_ptr<BodyStream> body_;
    WatchStreamOptions options_;
    WatchDecoder decoder_;
    bool ended_ = false;
    bool closed_ = false;
    Status error_;
};

}  // namespace ctrl::rest
