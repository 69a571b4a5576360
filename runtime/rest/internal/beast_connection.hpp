#pragma once

// Boost 1.74's awaitable.hpp needs <utility> first: task.hpp includes it in that order.
#include "ctrl/core/task.hpp"

#include <cstddef>
#include <memory>
#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/internal/beast_server_url.hpp"
#include "ctrl/rest/internal/beast_watchdog.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::rest::internal {

using WireRequest = boost::beast::http::request<boost::beast::http::string_body>;
using FullResponseParser = boost::beast::http::response_parser<boost::beast::http::string_body>;
using StreamResponseParser = boost::beast::http::response_parser<boost::beast::http::buffer_body>;
using boost::system::error_code;

// One HTTP/1.1 connection to the API server, plain or TLS, with its own strand: every method
// but Create and LooksReusable must be called on GetStrand(), and every operation is awaited
// before the next one starts. Timeouts and cancellation are not its business: Abort() (from a
// BeastWatchdog) closes the socket, which fails the pending operation. Errors are returned as
// error codes (never thrown); the caller turns them into Status with what it knows.
class BeastConnection final {
  public:
    // `tls` is null for plain http. Internal when OpenSSL cannot create the session.
    static StatusOr<std::shared_ptr<BeastConnection>> Create(boost::asio::any_io_executor executor,
                                                             std::shared_ptr<boost::asio::ssl::context> tls);

    const Strand& GetStrand() const { return strand_; }
    bool Connected() const { return connected_; }

    // Resolves, connects and, for TLS, handshakes. Unavailable naming the server and the cause.
    Task<Status> Connect(const ServerUrl& url, const TlsOptions& tls);
    // Writes the request; `bytes_written` says how far it got.
    Task<error_code> Write(const WireRequest& request, std::size_t& bytes_written);
    // Reads one whole response.
    Task<error_code> Read(FullResponseParser& parser);
    // Reads a response's header only.
    Task<error_code> ReadHeader(StreamResponseParser& parser);
    // Reads some of the body into the parser's buffer_body buffer (need_buffer when it filled up).
    Task<error_code> ReadSome(StreamResponseParser& parser);
    // Feeds the parser the bytes already received, without reading: stops when the parser needs
    // bytes not received yet, its body buffer is full or the message is done. An error only for a
    // malformed message.
    error_code ParseBuffered(StreamResponseParser& parser);

    // Closes the socket and cancels a pending name resolution; the pending operation fails.
    void Abort();
    // For an idle connection: still open, nothing buffered, nothing to read (no FIN, no stray
    // bytes). Called by the pool, off the strand, while no operation is pending.
    bool LooksReusable();

    // Use Create.
    BeastConnection(boost::asio::any_io_executor executor, std::shared_ptr<boost::asio::ssl::context> tls);

  private:
    using PlainStream = boost::beast::tcp_stream;
    using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;

    PlainStream& Lowest() { return tls_stream_ ? tls_stream_->next_layer() : *plain_stream_; }
    // Calls op with the stream requests are written to and responses read from.
    template <typename Op>
    auto WithStream(Op&& op) {
        return tls_stream_ ? op(*tls_stream_) : op(*plain_stream_);
    }
    Task<Status> ConnectSocket(const ServerUrl& url);

    Strand strand_;
    std::shared_ptr<boost::asio::ssl::context> tls_context_;  // keeps the SSL_CTX alive
    std::optional<PlainStream> plain_stream_;                 // exactly one of the two is set
    std::optional<TlsStream> tls_stream_;
    std::optional<boost::asio::ip::tcp::resolver> resolver_;
    boost::beast::flat_buffer buffer_;
    bool connected_ = false;
    bool aborted_ = false;
};

}  // namespace ctrl::rest::internal
