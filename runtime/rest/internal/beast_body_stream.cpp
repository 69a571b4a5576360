#include "ctrl/rest/internal/beast_body_stream.hpp"

#include <exception>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/error.hpp>

#include "ctrl/rest/internal/beast_exchange.hpp"

namespace ctrl::rest::internal {
namespace {

namespace net = boost::asio;
namespace http = boost::beast::http;

}  // namespace

BeastBodyStream::BeastBodyStream(std::shared_ptr<BeastConnection> connection,
                                 std::unique_ptr<StreamResponseParser> parser, std::string description,
                                 std::chrono::milliseconds idle_timeout)
    : connection_(std::move(connection)),
      parser_(std::move(parser)),
      description_(std::move(description)),
      idle_timeout_(idle_timeout),
      status_code_(static_cast<int>(parser_->get().result_int())),
      headers_(CopyHeaders(parser_->get().base())),
      idle_deadline_{std::nullopt, "idle timeout of " + FormatDuration(idle_timeout_)} {}

BeastBodyStream::~BeastBodyStream() {
    Close();
    if (watchdog_) {
        net::post(connection_->GetStrand(), [connection = connection_, watchdog = std::move(watchdog_)]() mutable {
            watchdog.reset();  // on the strand, before the connection its abort names
        });
    }
}

void BeastBodyStream::Close() {
    if (closed_.exchange(true))
        return;
    net::post(connection_->GetStrand(), [connection = connection_] { connection->Abort(); });
}

Task<StatusOr<std::size_t>> BeastBodyStream::ReadSome(Context ctx, char* data, std::size_t size) {
    if (size == 0)
        co_return BadRequestError(description_ + ": ReadSome needs room for at least one byte");
    try {
        co_return co_await net::co_spawn(connection_->GetStrand(), ReadOnStrand(std::move(ctx), data, size),
                                         net::use_awaitable);
    } catch (const std::exception& e) {
        co_return InternalError(description_ + ": " + e.what());
    }
}

Task<StatusOr<std::size_t>> BeastBodyStream::ReadOnStrand(Context ctx, char* data, std::size_t size) {
    if (closed_)
        co_return CancelledError(description_ + ": the stream was closed");
    if (!failed_.Ok())
        co_return failed_;
    if (parser_->is_done())
        co_return std::size_t{0};
    if (Status err = ctx.Err(); !err.Ok())
        co_return err.Annotate(description_);

    if (watchdog_) {
        watchdog_->Resume(ctx);
    } else {
        watchdog_ =
            std::make_unique<BeastWatchdog>(ctx, connection_->GetStrand(), [raw = connection_.get()] { raw->Abort(); });
    }
    BeastWatchdog& watchdog = *watchdog_;
    try {
        for (;;) {
            watchdog.ExpireAt(NextDeadline());
            auto& body = parser_->get().body();
            body.data = data;
            body.size = size;
            body.more = true;
            error_code ec = co_await connection_->ReadSome(*parser_);
            if (ec == http::error::need_buffer)
                ec = {};
            // What the connection already holds (the rest of a TLS record: more events, each its own
            // chunk) goes into this read too, without waiting: one call per record, not per chunk. The
            // body buffer has advanced past what the read wrote; a malformed chunk fails as a read does.
            if (!ec && body.size < size && body.size > 0 && !parser_->is_done())
                ec = connection_->ParseBuffered(*parser_);
            const std::size_t n = size - body.size;
            if (ec) {
                watchdog.Disarm();
                if (!watchdog.Fired().Ok()) {
                    failed_ = watchdog.Fired().Annotate(description_);
                } else if (closed_) {
                    failed_ = CancelledError(description_ + ": the stream was closed");
                } else {
                    const std::string reason = ec == http::error::partial_message || ec == net::error::eof
                                                   ? "the server closed the connection"
                                                   : ec.message();
                    failed_ = UnavailableError(description_ + " ended mid-body: " + reason);
                }
                connection_->Abort();
                if (n > 0)
                    co_return n;  // the error comes with the next call
                co_return failed_;
            }
            if (parser_->is_done()) {
                watchdog.Disarm();
                connection_->Abort();  // never reused
            }
            if (n > 0 || parser_->is_done()) {
                watchdog.Pause();
                co_return n;
            }
        }
    } catch (...) {
        watchdog.Pause();  // as a successful read leaves it
        throw;
    }
}

const Deadline& BeastBodyStream::NextDeadline() {
    if (idle_timeout_.count() > 0)
        idle_deadline_.at = Clock::now() + idle_timeout_;
    return idle_deadline_;
}

}  // namespace ctrl::rest::internal
