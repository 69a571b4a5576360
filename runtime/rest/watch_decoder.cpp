#include "ctrl/rest/watch_decoder.hpp"

#include "ctrl/rest/api_status.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "ctrl/protobuf/watch_frames.hpp"
#include "ctrl/rest/internal/protobuf_watch_event.hpp"
#include "ctrl/rest/internal/watch_event_parser.hpp"

namespace ctrl::rest {

namespace {

// The buffer's first allocation, and the size above which it shrinks back once a large event is read.
constexpr std::size_t kInitialCapacity = std::size_t{64} << 10;
constexpr std::size_t kShrinkAboveCapacity = std::size_t{1} << 20;

bool IsBlank(std::string_view line) {
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

Status TooLarge(std::uint64_t offset, std::size_t limit) {
    return BadRequestError("watch event at byte offset " + std::to_string(offset) + " is larger than the limit of " +
                           std::to_string(limit) + " bytes (WatchDecoderOptions::max_event_bytes)");
}

}  // namespace

WatchDecoder::WatchDecoder(WatchDecoderOptions options) : options_(options) {}
WatchDecoder::~WatchDecoder() = default;
WatchDecoder::WatchDecoder(WatchDecoder&&) noexcept = default;
WatchDecoder& WatchDecoder::operator=(WatchDecoder&&) noexcept = default;

Status WatchDecoder::Fail(Status status) {
    error_ = std::move(status);
    return error_;
}

void WatchDecoder::Reserve(std::size_t size) {
    const std::size_t needed = size + internal::kWatchEventParserPadding;
    if (begin_ > 0 && (begin_ == end_ || capacity_ - end_ < needed)) {
        // Drop the consumed bytes: the unread ones move to the front.
        std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
        buffer_offset_ += begin_;
        lines_end_ -= begin_;
        end_ -= begin_;
        begin_ = 0;
    }
    const std::size_t wanted = end_ + needed;
    const bool grow = capacity_ < wanted;
    const bool shrink = capacity_ > kShrinkAboveCapacity && wanted * 4 <= capacity_;
    if (!grow && !shrink)
        return;
    const std::size_t capacity = std::max({kInitialCapacity, wanted, grow ? capacity_ * 2 : wanted * 2});
    auto buffer = std::make_unique_for_overwrite<char[]>(capacity);
    if (end_ > 0)
        std::memcpy(buffer.get(), buffer_.get(), end_);
    buffer_ = std::move(buffer);
    capacity_ = capacity;
}

std::span<char> WatchDecoder::Prepare(std::size_t size) {
    Reserve(size);
    return {buffer_.get() + end_, size};
}

Status WatchDecoder::Commit(std::size_t size) {
    if (!error_.Ok())
        return error_;
    if (finished_)
        return Fail(InternalError("watch decoder fed after Finish"));
    if (size == 0)
        return OkStatus();
    if (capacity_ < end_ + internal::kWatchEventParserPadding ||
        size > capacity_ - end_ - internal::kWatchEventParserPadding)
        return Fail(InternalError("watch decoder: Commit of more bytes than Prepare gave room for"));
    const char* data = buffer_.get() + end_;
    if (options_.protobuf)
        lines_end_ = end_ + size;  // frames carry their length: NextFrame checks each against the limit
    else if (const void* newline = memrchr(data, '\n', size); newline != nullptr)
        lines_end_ = end_ + (static_cast<const char*>(newline) - data) + 1;
    end_ += size;
    // The fast path reads a little past a line's end: make what it reads defined.
    std::memset(buffer_.get() + end_, 0, internal::kWatchEventParserPadding);
    if (end_ - lines_end_ > options_.max_event_bytes)
        return Fail(TooLarge(buffer_offset_ + lines_end_, options_.max_event_bytes));
    return OkStatus();
}

Status WatchDecoder::Feed(std::string_view bytes) {
    if (!error_.Ok())
        return error_;
    if (bytes.empty())
        return OkStatus();
    std::span<char> room = Prepare(bytes.size());
    std::memcpy(room.data(), bytes.data(), bytes.size());
    return Commit(bytes.size());
}

void WatchDecoder::Finish() {
    finished_ = true;
}

StatusOr<std::optional<WatchEvent>> WatchDecoder::Next(WatchObjectSink* sink) {
    if (!error_.Ok())
        return error_;
    if (options_.protobuf)
        return NextFrame(sink);
    while (begin_ < lines_end_) {
        const char* start = buffer_.get() + begin_;
        const auto* newline = static_cast<const char*>(std::memchr(start, '\n', lines_end_ - begin_));
        const std::string_view line(start, static_cast<std::size_t>(newline - start));
        const std::uint64_t offset = buffer_offset_ + begin_;
        begin_ += line.size() + 1;
        // Blank or not, as Commit refuses an unfinished line over the limit whatever it holds.
        if (line.size() > options_.max_event_bytes)
            return Fail(TooLarge(offset, options_.max_event_bytes));
        if (IsBlank(line))
            continue;
        return DecodeLine(line, offset, sink);
    }
    if (!finished_ || begin_ == end_)
        return std::optional<WatchEvent>();
    // The body ended without a newline after the last bytes: a complete event is fine, a cut one is not.
    const std::string_view rest(buffer_.get() + begin_, end_ - begin_);
    const std::uint64_t offset = buffer_offset_ + begin_;
    begin_ = lines_end_ = end_;
    if (IsBlank(rest))
        return std::optional<WatchEvent>();
    auto event =
        internal::ParseWatchEvent(rest, offset, options_.fast_path_max_event_bytes, options_.drop_managed_fields, sink);
    if (!event.Ok()) {
        return Fail(UnavailableError("watch stream ended mid-event after " + std::to_string(BytesFed()) + " bytes (" +
                                     std::to_string(rest.size()) + " bytes of an unfinished event)"));
    }
    return std::optional<WatchEvent>(std::move(event).Value());
}

StatusOr<std::optional<WatchEvent>> WatchDecoder::DecodeLine(std::string_view line, std::uint64_t offset,
                                                             WatchObjectSink* sink) {
    auto event =
        internal::ParseWatchEvent(line, offset, options_.fast_path_max_event_bytes, options_.drop_managed_fields, sink);
    if (!event.Ok())
        return Fail(event.GetStatus());
    return std::optional<WatchEvent>(std::move(event).Value());
}

StatusOr<std::optional<WatchEvent>> WatchDecoder::NextFrame(WatchObjectSink* sink) {
    constexpr std::size_t kLengthBytes = protobuf::kFrameLengthBytes;
    const std::size_t held = end_ - begin_;
    const std::size_t length =
        held < kLengthBytes ? 0 : protobuf::FrameLength(std::string_view(buffer_.get() + begin_, kLengthBytes));
    const std::uint64_t offset = buffer_offset_ + begin_;
    if (held >= kLengthBytes && length > options_.max_event_bytes)
        return Fail(TooLarge(offset, options_.max_event_bytes));
    if (held < kLengthBytes || held - kLengthBytes < length) {
        if (finished_ && held > 0)
            return Fail(UnavailableError("watch stream ended mid-event after " + std::to_string(BytesFed()) +
                                         " bytes (" + std::to_string(held) + " bytes of an unfinished frame)"));
        return std::optional<WatchEvent>();
    }
    const std::string_view frame(buffer_.get() + begin_ + kLengthBytes, length);
    begin_ += kLengthBytes + length;
    auto event = internal::DecodeProtobufWatchEvent(frame, offset, options_.drop_managed_fields, sink);
    if (!event.Ok())
        return Fail(event.GetStatus());
    return std::optional<WatchEvent>(std::move(event).Value());
}

Status StatusFromWatchEvent(const WatchEvent& event) {
    if (event.type != WatchEvent::Type::kError)
        return OkStatus();
    Status status = StatusFromApiStatus(event.object, 0);
    if (status.Message().empty() || status.Message().starts_with("the server answered HTTP")) {
        return Status(status.Code(), "watch stream sent an ERROR event" +
                                         (status.Reason().empty() ? std::string() : " (" + status.Reason() + ")"))
            .WithReason(status.Reason())
            .WithHttpCode(status.HttpCode());
    }
    return status;
}

}  // namespace ctrl::rest
