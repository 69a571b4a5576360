#include "ctrl/server/internal/http_connection.hpp"

#include <exception>
#include <optional>
#include <string>
#include <utility>

#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

namespace ctrl::server::internal {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;
using WireRequest = http::request<http::string_body>;
using WireResponse = http::response<http::string_body>;

// Whether a read error is the client going away or a deadline (close quietly) rather than a
// malformed request (answer 400).
bool IsQuietClose(const error_code& ec) {
    return ec == http::error::end_of_stream || ec == beast::error::timeout || ec == net::error::operation_aborted ||
           ec == net::error::eof || ec == net::error::connection_reset || ec == net::error::bad_descriptor ||
           ec == http::error::partial_message || ec.category() == net::error::get_ssl_category() ||
           ec == net::ssl::error::stream_truncated;
}

ServerRequest ToServerRequest(const HttpServer::State& state, WireRequest& wire) {
    ServerRequest request;
    request.ctx = Context::WithCancel(state.run_ctx);
    request.method = std::string(wire.method_string());
    request.target = std::string(wire.target());
    const size_t question = request.target.find('?');
    request.path = PercentDecode(std::string_view(request.target).substr(0, question), false);
    if (question != std::string::npos)
        request.query = request.target.substr(question + 1);
    for (const auto& field : wire)
        request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    request.body = std::move(wire.body());
    return request;
}

// Runs the handler of the request's path, or answers 404/405/500 itself.
Task<ServerResponse> Dispatch(HttpServer::State& state, const ServerRequest& request) {
    const HttpServer::State::Route route = state.RouteOf(request.path);
    if (!route.handler)
        co_return TextResponse(404, "404 page not found\n");
    const bool allowed = route.post ? request.method == "POST" : request.method == "GET" || request.method == "HEAD";
    if (!allowed) {
        ServerResponse response = TextResponse(405, "405 method not allowed\n");
        response.headers.emplace_back("Allow", route.post ? "POST" : "GET, HEAD");
        co_return response;
    }
    try {
        co_return co_await route.handler(request);
    } catch (const std::exception& e) {
        state.logger.Error(InternalError(e.what()), "handler failed", "path", request.path);
    }
    co_return TextResponse(500, "500 internal server error\n");
}

WireResponse ToWire(ServerResponse response, unsigned version, bool keep_alive) {
    WireResponse wire(static_cast<http::status>(response.status), version);
    wire.set(http::field::content_type, response.content_type);
    wire.set("X-Content-Type-Options", "nosniff");
    for (auto& [name, value] : response.headers)
        wire.set(name, value);
    wire.body() = std::move(response.body);
    wire.keep_alive(keep_alive);
    wire.prepare_payload();
    return wire;
}

// Writes response (its header only for HEAD) within the write timeout.
template <typename Stream>
Task<error_code> Write(HttpServer::State& state, Stream& stream, WireResponse& response, bool head_only) {
    error_code ec;
    beast::get_lowest_layer(stream).expires_after(state.options.write_timeout);
    http::response_serializer<http::string_body> serializer(response);
    if (head_only)
        co_await http::async_write_header(stream, serializer, net::redirect_error(net::use_awaitable, ec));
    else
        co_await http::async_write(stream, serializer, net::redirect_error(net::use_awaitable, ec));
    co_return ec;
}

// Answers a request that could not be read (400, 413, 431); the connection closes after.
template <typename Stream>
Task<void> Reject(HttpServer::State& state, Stream& stream, int status, std::string body) {
    WireResponse response = ToWire(TextResponse(status, std::move(body)), 11, false);
    co_await Write(state, stream, response, false);
}

// Reads and answers requests until the connection should close.
template <typename Stream>
Task<void> ServeRequests(HttpServer::State& state, Stream& stream) {
    beast::flat_buffer buffer;
    auto& lowest = beast::get_lowest_layer(stream);
    for (bool first = true;; first = false) {
        error_code ec;
        if (buffer.size() == 0) {
            // Wait for the request's first bytes: a new connection within the read timeout (a
            // client that connects and says nothing holds a slot no longer than a slow one),
            // a kept-alive one within the idle timeout.
            lowest.expires_after(first ? state.options.read_timeout : state.options.idle_timeout);
            const size_t n =
                co_await stream.async_read_some(buffer.prepare(4096), net::redirect_error(net::use_awaitable, ec));
            if (ec)
                co_return;
            buffer.commit(n);
        }
        lowest.expires_after(state.options.read_timeout);
        http::request_parser<http::string_body> parser;
        parser.header_limit(static_cast<std::uint32_t>(state.options.max_header_bytes));
        parser.body_limit(state.options.max_body_bytes);
        co_await http::async_read(stream, buffer, parser, net::redirect_error(net::use_awaitable, ec));
        if (ec == http::error::header_limit) {
            co_await Reject(state, stream, 431, "431 Request Header Fields Too Large\n");
            co_return;
        }
        if (ec == http::error::body_limit) {
            co_await Reject(state, stream, 413, "413 Request Entity Too Large\n");
            co_return;
        }
        if (ec) {
            if (!IsQuietClose(ec))
                co_await Reject(state, stream, 400, "400 Bad Request\n");
            else if (ec == beast::error::timeout)
                state.logger.V(1).Info("closing a connection: request not read in time");
            co_return;
        }
        WireRequest wire = parser.release();
        const ServerRequest request = ToServerRequest(state, wire);
        ServerResponse answer = co_await Dispatch(state, request);
        bool keep_alive = wire.keep_alive();
        {
            std::lock_guard lock(state.mu);
            keep_alive = keep_alive && !state.stopping;
        }
        WireResponse response = ToWire(std::move(answer), wire.version(), keep_alive);
        ec = co_await Write(state, stream, response, request.method == "HEAD");
        if (ec || !keep_alive)
            co_return;
    }
}

// The streams of one connection: plain TCP, or TLS over it.
struct Connection {
    std::optional<beast::tcp_stream> plain;
    std::optional<beast::ssl_stream<beast::tcp_stream>> tls;

    beast::tcp_stream& Lowest() { return tls ? tls->next_layer() : *plain; }
    void Close() {
        error_code ignored;
        Lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
        Lowest().socket().close(ignored);
    }
};

// Closes a connection's socket from any thread, through its strand.
struct SocketCloser {
    net::any_io_executor strand;
    std::weak_ptr<Connection> connection;
    void operator()() const {
        net::post(strand, [connection = connection] {
            if (auto c = connection.lock())
                c->Close();
        });
    }
};

}  // namespace

Task<void> ServeConnection(std::shared_ptr<HttpServer::State> state, tcp::socket socket) {
    net::any_io_executor strand = socket.get_executor();
    auto connection = std::make_shared<Connection>();
    if (state->tls)
        connection->tls.emplace(std::move(socket), *state->tls);
    else
        connection->plain.emplace(std::move(socket));
    const std::optional<uint64_t> id = state->AddConnection(SocketCloser{strand, connection});
    if (!id) {
        state->logger.V(1).Info("closing a connection: too many connections or stopping", "max",
                                state->options.max_connections);
        connection->Close();
        co_return;
    }
    try {
        if (connection->tls) {
            error_code ec;
            connection->Lowest().expires_after(state->options.read_timeout);
            co_await connection->tls->async_handshake(net::ssl::stream_base::server,
                                                      net::redirect_error(net::use_awaitable, ec));
            if (!ec)
                co_await ServeRequests(*state, *connection->tls);
        } else {
            co_await ServeRequests(*state, *connection->plain);
        }
    } catch (const std::exception& e) {
        state->logger.Error(InternalError(e.what()), "connection failed");
    }
    connection->Close();
    state->RemoveConnection(*id);
}

}  // namespace ctrl::server::internal
