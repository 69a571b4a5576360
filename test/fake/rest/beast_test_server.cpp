#include "test/fake/rest/beast_test_server.hpp"

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <cctype>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

namespace ctrl::rest::testing {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using net::ip::tcp;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
               return std::tolower(x) == std::tolower(y);
           });
}

std::string Hex(std::size_t n) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    do {
        out.insert(out.begin(), kDigits[n % 16]);
        n /= 16;
    } while (n > 0);
    return out;
}

}  // namespace

HttpRequest Get(std::string target, std::chrono::milliseconds timeout) {
    HttpRequest request;
    request.target = std::move(target);
    request.timeout = timeout;
    return request;
}

HttpRequest Request(std::string method, std::string target, std::string body) {
    HttpRequest request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    return request;
}

std::optional<std::string> ReceivedRequest::FindHeader(std::string_view name) const {
    for (const Header& header : headers) {
        if (EqualsIgnoreCase(header.name, name))
            return header.value;
    }
    return std::nullopt;
}

ServerExchange::ServerExchange(ReceivedRequest request, std::function<Task<bool>(std::string)> write,
                               net::any_io_executor executor)
    : request_(std::move(request)), write_(std::move(write)), executor_(std::move(executor)) {}

Task<bool> ServerExchange::Write(std::string bytes) {
    return write_(std::move(bytes));
}

Task<bool> ServerExchange::Respond(int status, std::string body, std::vector<Header> headers) {
    std::string out =
        "HTTP/1.1 " + std::to_string(status) + " Status\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    for (const Header& header : headers)
        out += header.name + ": " + header.value + "\r\n";
    out += "\r\n" + body;
    return Write(std::move(out));
}

Task<bool> ServerExchange::StartChunked(int status) {
    return Write("HTTP/1.1 " + std::to_string(status) +
                 " Status\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
}

Task<bool> ServerExchange::WriteChunk(std::string_view data) {
    return Write(Hex(data.size()) + "\r\n" + std::string(data) + "\r\n");
}

Task<bool> ServerExchange::EndChunks() {
    return Write("0\r\n\r\n");
}

Task<void> ServerExchange::Sleep(std::chrono::milliseconds duration) {
    net::steady_timer timer(executor_, duration);
    boost::system::error_code ec;
    co_await timer.async_wait(net::redirect_error(net::use_awaitable, ec));
}

BeastTestServer::BeastTestServer(Handler handler, Options options)
    : handler_(std::move(handler)), options_(std::move(options)), acceptor_(io_) {
    if (!options_.cert_file.empty()) {
        tls_ = std::make_unique<net::ssl::context>(net::ssl::context::tls_server);
        tls_->use_certificate_chain_file(options_.cert_file);
        tls_->use_private_key_file(options_.key_file, net::ssl::context::pem);
        if (!options_.client_ca_file.empty()) {
            tls_->load_verify_file(options_.client_ca_file);
            tls_->set_verify_mode(net::ssl::verify_peer | net::ssl::verify_fail_if_no_peer_cert);
        }
    }
    const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), 0);
    acceptor_.open(endpoint.protocol());
    acceptor_.bind(endpoint);
    acceptor_.listen();
    net::co_spawn(io_, AcceptLoop(), net::detached);
    thread_ = std::thread([this] { io_.run(); });
}

BeastTestServer::~BeastTestServer() {
    io_.stop();
    thread_.join();
}

std::string BeastTestServer::Url() const {
    return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port());
}

std::vector<ReceivedRequest> BeastTestServer::Requests() const {
    std::lock_guard lock(mu_);
    return requests_;
}

std::string BeastTestServer::LastServerName() const {
    std::lock_guard lock(mu_);
    return last_server_name_;
}

std::string BeastTestServer::LastClientSubject() const {
    std::lock_guard lock(mu_);
    return last_client_subject_;
}

Task<void> BeastTestServer::AcceptLoop() {
    for (;;) {
        boost::system::error_code ec;
        tcp::socket socket = co_await acceptor_.async_accept(net::redirect_error(net::use_awaitable, ec));
        if (ec)
            co_return;
        const int id = ++connections_;
        if (options_.accept_only) {
            held_.push_back(std::move(socket));
            continue;
        }
        net::co_spawn(io_, Serve(std::move(socket), id), net::detached);
    }
}

Task<void> BeastTestServer::Serve(tcp::socket socket, int id) {
    if (!tls_) {
        beast::tcp_stream stream(std::move(socket));
        co_await ServeRequests(stream, id);
        co_return;
    }
    beast::ssl_stream<beast::tcp_stream> stream(std::move(socket), *tls_);
    boost::system::error_code ec;
    co_await stream.async_handshake(net::ssl::stream_base::server, net::redirect_error(net::use_awaitable, ec));
    {
        std::lock_guard lock(mu_);
        const char* sni = SSL_get_servername(stream.native_handle(), TLSEXT_NAMETYPE_host_name);
        last_server_name_ = sni ? sni : "";
        last_client_subject_.clear();
        if (X509* peer = SSL_get1_peer_certificate(stream.native_handle())) {
            char buf[256] = {};
            X509_NAME_oneline(X509_get_subject_name(peer), buf, sizeof(buf));
            last_client_subject_ = buf;
            X509_free(peer);
        }
    }
    if (ec)
        co_return;
    co_await ServeRequests(stream, id);
}

template <typename Stream>
Task<void> BeastTestServer::ServeRequests(Stream& stream, int id) {
    beast::flat_buffer buffer;
    for (;;) {
        http::request_parser<http::string_body> parser;
        parser.body_limit(std::uint64_t{64} << 20);
        boost::system::error_code ec;
        co_await http::async_read(stream, buffer, parser, net::redirect_error(net::use_awaitable, ec));
        if (ec)
            co_return;
        const auto& message = parser.get();
        ReceivedRequest received{.method = std::string(message.method_string()),
                                 .target = std::string(message.target()),
                                 .headers = {},
                                 .body = message.body(),
                                 .connection = id};
        for (const auto& field : message)
            received.headers.push_back({std::string(field.name_string()), std::string(field.value())});
        {
            std::lock_guard lock(mu_);
            requests_.push_back(received);
        }
        auto write = [&stream](std::string bytes) -> Task<bool> {
            boost::system::error_code write_ec;
            co_await net::async_write(stream, net::buffer(bytes), net::redirect_error(net::use_awaitable, write_ec));
            co_return !write_ec;
        };
        ServerExchange exchange(std::move(received), write, io_.get_executor());
        co_await handler_(exchange);
        if (exchange.ClosesAfter())
            co_return;
    }
}

}  // namespace ctrl::rest::testing
