#include "ctrl/rest/internal/beast_connection.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

#include <cerrno>
#include <exception>
#include <string>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include "ctrl/rest/internal/beast_tls_context.hpp"

namespace ctrl::rest::internal {
namespace {

namespace net = boost::asio;
namespace http = boost::beast::http;
using net::ip::tcp;

// One TLS record is at most 16 KiB; plain reads of large bodies gain a little from more.
constexpr std::size_t kReadBufferBytes = 64 * 1024;

}  // namespace

StatusOr<std::shared_ptr<BeastConnection>> BeastConnection::Create(net::any_io_executor executor,
                                                                   std::shared_ptr<net::ssl::context> tls) {
    try {
        return std::make_shared<BeastConnection>(std::move(executor), std::move(tls));
    } catch (const std::exception& e) {
        ERR_clear_error();
        return InternalError(std::string("creating a connection: ") + e.what());
    }
}

BeastConnection::BeastConnection(net::any_io_executor executor, std::shared_ptr<net::ssl::context> tls)
    : strand_(net::make_strand(std::move(executor))), tls_context_(std::move(tls)) {
    if (tls_context_) {
        tls_stream_.emplace(strand_, *tls_context_);
    } else {
        plain_stream_.emplace(strand_);
    }
    // Beast reads at most the buffer's free capacity per call (512 bytes for a new flat_buffer).
    buffer_.reserve(kReadBufferBytes);
}

Task<Status> BeastConnection::Connect(const ServerUrl& url, const TlsOptions& tls) {
    CTRL_CO_RETURN_IF_ERROR(co_await ConnectSocket(url));
    if (tls_stream_) {
        SSL* ssl = tls_stream_->native_handle();
        CTRL_CO_RETURN_IF_ERROR(PrepareTlsSession(ssl, url, tls));
        error_code ec;
        co_await tls_stream_->async_handshake(net::ssl::stream_base::client,
                                              net::redirect_error(net::use_awaitable, ec));
        if (ec)
            co_return UnavailableError("TLS handshake with " + url.text + " failed: " + DescribeTlsError(ec, ssl));
    }
    connected_ = !aborted_;
    co_return OkStatus();
}

Task<Status> BeastConnection::ConnectSocket(const ServerUrl& url) {
    error_code ec;
    if (url.host_is_ip) {
        const tcp::endpoint endpoint(net::ip::make_address(url.host, ec),
                                     static_cast<unsigned short>(std::stoi(url.port)));
        if (!ec)
            co_await Lowest().async_connect(endpoint, net::redirect_error(net::use_awaitable, ec));
    } else {
        resolver_.emplace(strand_);
        const tcp::resolver::results_type endpoints =
            co_await resolver_->async_resolve(url.host, url.port, net::redirect_error(net::use_awaitable, ec));
        resolver_.reset();
        if (ec)
            co_return UnavailableError("resolving " + url.host + " for " + url.text + ": " + ec.message());
        co_await Lowest().async_connect(endpoints, net::redirect_error(net::use_awaitable, ec));
    }
    if (ec)
        co_return UnavailableError("connecting to " + url.text + " failed: " + ec.message());
    // Requests are small and latency-bound: do not wait for ACKs to coalesce them.
    Lowest().socket().set_option(tcp::no_delay(true), ec);
    co_return OkStatus();
}

Task<error_code> BeastConnection::Write(const WireRequest& request, std::size_t& bytes_written) {
    error_code ec;
    bytes_written = co_await WithStream(
        [&](auto& stream) { return http::async_write(stream, request, net::redirect_error(net::use_awaitable, ec)); });
    co_return ec;
}

Task<error_code> BeastConnection::Read(FullResponseParser& parser) {
    // The header first, on its own: Boost 1.74's parser, when eager (as http::async_read makes
    // it), loses the body_limit error of a too-large Content-Length if body bytes came with the
    // header, and goes on to reserve that much memory.
    error_code ec;
    co_await WithStream([&](auto& stream) {
        return http::async_read_header(stream, buffer_, parser, net::redirect_error(net::use_awaitable, ec));
    });
    if (ec || parser.is_done())
        co_return ec;
    co_await WithStream([&](auto& stream) {
        return http::async_read(stream, buffer_, parser, net::redirect_error(net::use_awaitable, ec));
    });
    co_return ec;
}

Task<error_code> BeastConnection::ReadHeader(StreamResponseParser& parser) {
    error_code ec;
    co_await WithStream([&](auto& stream) {
        return http::async_read_header(stream, buffer_, parser, net::redirect_error(net::use_awaitable, ec));
    });
    co_return ec;
}

Task<error_code> BeastConnection::ReadSome(StreamResponseParser& parser) {
    error_code ec;
    co_await WithStream([&](auto& stream) {
        return http::async_read_some(stream, buffer_, parser, net::redirect_error(net::use_awaitable, ec));
    });
    co_return ec;
}

error_code BeastConnection::ParseBuffered(StreamResponseParser& parser) {
    while (buffer_.size() > 0 && !parser.is_done()) {
        error_code ec;
        const std::size_t used = parser.put(buffer_.data(), ec);
        buffer_.consume(used);
        if (ec == http::error::need_more || ec == http::error::need_buffer)
            return {};
        if (ec)
            return ec;
        if (used == 0)
            break;
    }
    return {};
}

void BeastConnection::Abort() {
    aborted_ = true;
    connected_ = false;
    if (resolver_)
        resolver_->cancel();
    error_code ignored;
    Lowest().socket().close(ignored);
}

bool BeastConnection::LooksReusable() {
    if (!connected_ || aborted_ || buffer_.size() != 0)
        return false;
    if (tls_stream_ && SSL_pending(tls_stream_->native_handle()) > 0)
        return false;
    // An idle HTTP/1.1 connection has nothing to read: a readable socket means the server closed
    // it (EOF, a TLS close_notify) or sent something unasked (a 408). Either way, do not use it.
    char byte = 0;
    const ssize_t n = ::recv(Lowest().socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

}  // namespace ctrl::rest::internal
