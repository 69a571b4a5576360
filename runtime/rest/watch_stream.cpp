#include "ctrl/rest/watch_stream.hpp"

#include <span>
#include <utility>

namespace ctrl::rest {

namespace {

// options with the decoder set for what the server sent: protobuf frames when the response says so.
WatchStreamOptions ForResponse(const BodyStream& body, WatchStreamOptions options) {
    const std::optional<std::string_view> type = FindHeader(body.Headers(), "Content-Type");
    options.decoder.protobuf = type && type->starts_with("application/vnd.kubernetes.protobuf");
    if (options.read_block_bytes == 0)
        options.read_block_bytes = WatchStreamOptions().read_block_bytes;
    return options;
}

}  // namespace

WatchStream::WatchStream(std::unique_ptr<BodyStream> body, WatchStreamOptions options)
    : body_(std::move(body)), options_(ForResponse(*body_, std::move(options))), decoder_(options_.decoder) {}

WatchStream::~WatchStream() {
    Close();
}

WatchStream::WatchStream(WatchStream&&) noexcept = default;
WatchStream& WatchStream::operator=(WatchStream&&) noexcept = default;

void WatchStream::Close() {
    if (body_ != nullptr && !closed_)
        body_->Close();
    closed_ = true;
}

Status WatchStream::Fail(Status status) {
    error_ = std::move(status);
    Close();
    return error_;
}

Task<StatusOr<std::optional<WatchEvent>>> WatchStream::Next(Context ctx, WatchObjectSink* sink) {
    if (!error_.Ok())
        co_return error_;
    while (true) {
        // A decoded event is handed out even after the body ended; a closed stream hands out nothing.
        if (closed_ && !ended_)
            co_return Fail(CancelledError("watch stream closed"));
        if (Status err = ctx.Err(); !err.Ok())
            co_return Fail(err);
        auto event = decoder_.Next(sink);
        if (!event.Ok())
            co_return Fail(event.GetStatus());
        if (event->has_value() || ended_)
            co_return std::move(event).Value();
        std::span<char> room = decoder_.Prepare(options_.read_block_bytes);
        auto read = co_await body_->ReadSome(ctx, room.data(), room.size());
        if (!read.Ok())
            co_return Fail(read.GetStatus());
        if (*read == 0) {
            ended_ = true;
            decoder_.Finish();
            Close();
            continue;
        }
        if (Status committed = decoder_.Commit(*read); !committed.Ok())
            co_return Fail(committed);
    }
}

}  // namespace ctrl::rest
