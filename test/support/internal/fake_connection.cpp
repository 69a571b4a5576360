#include "test/support/internal/fake_connection.hpp"

#include <openssl/ssl.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>

namespace ctrl::testing::internal {
namespace {

namespace http = boost::beast::http;
using boost::asio::redirect_error;
using boost::asio::use_awaitable;
using tcp = boost::asio::ip::tcp;

constexpr std::size_t kMaxRequestBody = std::size_t{64} << 20;

Task<void> Sleep(std::chrono::milliseconds duration) {
    if (duration <= std::chrono::milliseconds::zero())
        co_return;
    boost::asio::steady_timer timer(co_await boost::asio::this_coro::executor, duration);
    boost::system::error_code ec;
    co_await timer.async_wait(redirect_error(use_awaitable, ec));
}

// Takes the data by value: it lives in the coroutine frame while the write is in flight.
template <typename Stream>
Task<bool> Write(Stream& stream, std::string data) {
    boost::system::error_code ec;
    co_await boost::asio::async_write(stream, boost::asio::buffer(data.data(), data.size()),
                                      redirect_error(use_awaitable, ec));
    co_return !ec;
}

// Reads until the client closes the connection (or the server stops).
template <typename Stream>
Task<void> WaitForClose(Stream& stream) {
    char scratch[512];
    boost::system::error_code ec;
    while (!ec)
        co_await stream.async_read_some(boost::asio::buffer(scratch), redirect_error(use_awaitable, ec));
}

std::string Head(const FakeResponse& response) {
    const auto reason = http::obsolete_reason(http::int_to_status(static_cast<unsigned>(response.status)));
    std::string head =
        "HTTP/1.1 " + std::to_string(response.status) + " " + std::string(reason.data(), reason.size()) + "\r\n";
    for (const auto& [name, value] : response.headers)
        head += name + ": " + value + "\r\n";
    if (response.chunked) {
        head += "Transfer-Encoding: chunked\r\n";
    } else {
        std::size_t size = 0;
        for (const FakeChunk& chunk : response.chunks)
            size += chunk.data.size();
        head += "Content-Length: " + std::to_string(response.content_length.value_or(size)) + "\r\n";
    }
    return head + "\r\n";
}

std::string Framed(const FakeResponse& response, const std::string& data) {
    if (!response.chunked)
        return data;
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    return size + data + "\r\n";
}

FakeRequest ToFakeRequest(const http::request<http::string_body>& message, int connection, std::string sni) {
    FakeRequest request;
    request.method = std::string(message.method_string());
    request.target = std::string(message.target());
    const std::size_t question = request.target.find('?');
    request.path = request.target.substr(0, question);
    request.query = question == std::string::npos ? "" : request.target.substr(question + 1);
    for (const auto& field : message)
        request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    request.body = message.body();
    request.connection = connection;
    request.tls_server_name = std::move(sni);
    return request;
}

// Plays the scripts for the requests on one connection; returns when the connection is to close.
template <typename Stream>
Task<void> Serve(Stream& stream, FakeScript& script, int connection, std::string sni) {
    boost::beast::flat_buffer buffer;
    while (true) {
        http::request_parser<http::string_body> parser;
        parser.body_limit(kMaxRequestBody);
        boost::system::error_code ec;
        co_await http::async_read(stream, buffer, parser, redirect_error(use_awaitable, ec));
        if (ec)
            co_return;
        const bool keep_alive = parser.get().keep_alive();
        const FakeResponse response = script.Answer(ToFakeRequest(parser.get(), connection, sni));
        if (response.close_without_answer)
            co_return;
        co_await Sleep(response.delay);
        if (!co_await Write(stream, Head(response)))
            co_return;
        for (const FakeChunk& chunk : response.chunks) {
            co_await Sleep(chunk.delay);
            if (chunk.data.empty())
                continue;  // an empty HTTP chunk would end the body
            if (!co_await Write(stream, Framed(response, chunk.data)))
                co_return;
            script.CountBodyBytes(chunk.data.size());
        }
        if (response.end == FakeEnd::kDrop)
            co_return;
        if (response.end == FakeEnd::kHang) {
            co_await WaitForClose(stream);
            co_return;
        }
        if (response.chunked && !co_await Write(stream, "0\r\n\r\n"))
            co_return;
        if (!keep_alive)
            co_return;
    }
}

void CloseSocket(tcp::socket& socket) {
    boost::system::error_code ec;
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
}

}  // namespace

Task<void> ServeFakeConnection(tcp::socket socket, std::shared_ptr<boost::asio::ssl::context> tls,
                               std::shared_ptr<FakeScript> script) {
    const int connection = script->CountConnection();
    try {
        if (!tls) {
            co_await Serve(socket, *script, connection, "");
            CloseSocket(socket);
            co_return;
        }
        boost::asio::ssl::stream<tcp::socket> stream(std::move(socket), *tls);
        boost::system::error_code ec;
        co_await stream.async_handshake(boost::asio::ssl::stream_base::server, redirect_error(use_awaitable, ec));
        if (!ec) {
            const char* sni = SSL_get_servername(stream.native_handle(), TLSEXT_NAMETYPE_host_name);
            co_await Serve(stream, *script, connection, sni ? sni : "");
        }
        CloseSocket(stream.next_layer());
    } catch (const std::exception&) {
        // A test fake: whatever went wrong ends this connection only.
    }
}

}  // namespace ctrl::testing::internal
