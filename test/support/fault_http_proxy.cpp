#include "test/support/fault_http_proxy.hpp"

#include <algorithm>
#include <limits>
#include <mutex>
#include <random>
#include <thread>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include "ctrl/core/task.hpp"

namespace ctrl::testing {
namespace {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
namespace http = boost::beast::http;
using asio::redirect_error;
using asio::use_awaitable;
using tcp = asio::ip::tcp;
using TlsStream = ssl::stream<tcp::socket>;

enum class Fault { kNone, kTooManyRequests, kUnavailable, kMalformed, kTruncated };

std::string Response(const std::string& status_line, const std::string& headers, const std::string& body) {
    return "HTTP/1.1 " + status_line + "\r\nContent-Type: application/json\r\n" + headers +
           "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

std::string StatusBody(int code, const std::string& reason, const std::string& message, const std::string& details) {
    return R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":")" + message +
           R"(","reason":")" + reason + "\"" + details + ",\"code\":" + std::to_string(code) + "}";
}

std::string Chunk(const std::string& data) {
    char size[16];
    std::snprintf(size, sizeof(size), "%zx", data.size());
    return std::string(size) + "\r\n" + data + "\r\n";
}

// What the proxy answers by itself for a fault (kTruncated and kNone are forwarded).
std::string ScriptedAnswer(Fault fault, bool watch) {
    switch (fault) {
        case Fault::kTooManyRequests:
            return Response("429 Too Many Requests", "Retry-After: 1\r\n",
                            StatusBody(429, "TooManyRequests", "fault proxy: too many requests, try again later",
                                       R"(,"details":{"retryAfterSeconds":1})"));
        case Fault::kUnavailable:
            return Response("503 Service Unavailable", "",
                            StatusBody(503, "ServiceUnavailable", "fault proxy: the server is unavailable", ""));
        case Fault::kMalformed:
            if (watch) {
                // An event that breaks off, then a line that is not JSON; the connection then drops.
                return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
                       Chunk(R"({"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":)"
                             "\n") +
                       Chunk("<html>this is not a watch event</html>\n");
            }
            return Response(
                "200 OK", "",
                R"({"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"tru)");
        default:
            return "";
    }
}

}  // namespace

struct FaultHttpProxy::Impl {
    explicit Impl(Options o) : options(std::move(o)), random(options.seed), acceptor(io) {}

    // Declared in this order so that destruction (reversed) closes the acceptor while its
    // io_context lives, and the io_context destroys the pending coroutines (their sockets and
    // streams) while the TLS contexts and counters they use still live.
    Options options;
    ssl::context server_tls{ssl::context::tls_server};
    ssl::context client_tls{ssl::context::tls_client};
    tcp::endpoint upstream;
    int port = 0;
    mutable std::mutex mu;  // guards random, mix and counts
    std::mt19937 random;
    FaultMix mix;
    Counts counts;
    asio::io_context io{1};
    tcp::acceptor acceptor;
    std::thread thread;

    Fault Decide(const std::string& target) {
        std::lock_guard lock(mu);
        ++counts.requests;
        if (!options.exempt_path.empty() && target.find(options.exempt_path) != std::string::npos)
            return Fault::kNone;
        double roll = std::uniform_real_distribution<double>(0, 1)(random);
        for (auto [p, fault] : {std::pair{mix.too_many_requests, Fault::kTooManyRequests},
                                {mix.unavailable, Fault::kUnavailable},
                                {mix.malformed, Fault::kMalformed},
                                {mix.truncated, Fault::kTruncated}}) {
            if (roll < p) {
                if (fault == Fault::kTooManyRequests)
                    ++counts.too_many_requests;
                else if (fault == Fault::kUnavailable)
                    ++counts.unavailable;
                else if (fault == Fault::kMalformed)
                    ++counts.malformed;
                return fault;
            }
            roll -= p;
        }
        return Fault::kNone;
    }

    std::size_t TruncateAfter() {
        std::lock_guard lock(mu);
        return std::uniform_int_distribution<std::size_t>(64, 6000)(random);
    }

    void Forwarded(bool cut) {
        std::lock_guard lock(mu);
        ++(cut ? counts.truncated : counts.forwarded);
    }

    // Sends the request upstream on a connection of its own and relays the answer as it comes, cut
    // after `limit` bytes. Whether it was cut.
    Task<bool> Forward(TlsStream& client, http::request<http::string_body>& request, std::size_t limit) {
        TlsStream server(co_await asio::this_coro::executor, client_tls);
        boost::system::error_code ec;
        co_await server.next_layer().async_connect(upstream, redirect_error(use_awaitable, ec));
        if (!ec)
            co_await server.async_handshake(ssl::stream_base::client, redirect_error(use_awaitable, ec));
        request.keep_alive(false);
        if (!ec)
            co_await http::async_write(server, request, redirect_error(use_awaitable, ec));
        if (ec)
            co_return false;  // the client sees its connection close without an answer
        char buffer[16384];
        std::size_t sent = 0;
        bool cut = false;
        while (true) {
            const std::size_t n =
                co_await server.async_read_some(asio::buffer(buffer), redirect_error(use_awaitable, ec));
            const std::size_t take = std::min(n, limit - sent);
            boost::system::error_code write_error;
            if (take > 0)
                co_await asio::async_write(client, asio::buffer(buffer, take),
                                           redirect_error(use_awaitable, write_error));
            sent += take;
            if (take < n || (sent >= limit && !ec)) {
                cut = true;
                break;
            }
            if (ec || write_error)
                break;
        }
        boost::system::error_code ignored;
        server.lowest_layer().close(ignored);
        co_return cut;
    }

    Task<void> Serve(tcp::socket socket) {
        TlsStream client(std::move(socket), server_tls);
        boost::system::error_code ec;
        co_await client.async_handshake(ssl::stream_base::server, redirect_error(use_awaitable, ec));
        if (ec)
            co_return;
        boost::beast::flat_buffer buffer;
        http::request_parser<http::string_body> parser;
        parser.body_limit(std::uint64_t{64} << 20);
        co_await http::async_read(client, buffer, parser, redirect_error(use_awaitable, ec));
        if (ec)
            co_return;
        http::request<http::string_body> request = parser.release();
        const std::string target(request.target());
        const bool watch =
            target.find("watch=true") != std::string::npos || target.find("/watch/") != std::string::npos;
        const Fault fault = Decide(target);
        bool clean_close = true;
        if (fault == Fault::kNone || fault == Fault::kTruncated) {
            const std::size_t limit =
                fault == Fault::kTruncated ? TruncateAfter() : std::numeric_limits<std::size_t>::max();
            const bool cut = co_await Forward(client, request, limit);
            Forwarded(cut);
            clean_close = !cut;
        } else {
            const std::string answer = ScriptedAnswer(fault, watch);
            co_await asio::async_write(client, asio::buffer(answer), redirect_error(use_awaitable, ec));
            clean_close = !(fault == Fault::kMalformed && watch);
        }
        if (clean_close)
            co_await client.async_shutdown(redirect_error(use_awaitable, ec));
        boost::system::error_code ignored;
        client.lowest_layer().close(ignored);
    }

    Task<void> Accept() {
        while (true) {
            boost::system::error_code ec;
            tcp::socket socket = co_await acceptor.async_accept(redirect_error(use_awaitable, ec));
            if (ec == asio::error::operation_aborted || !acceptor.is_open())
                co_return;
            if (ec)
                continue;
            asio::co_spawn(io, Serve(std::move(socket)), asio::detached);
        }
    }
};

FaultHttpProxy::FaultHttpProxy(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

StatusOr<std::unique_ptr<FaultHttpProxy>> FaultHttpProxy::Start(Options options) {
    auto impl = std::make_unique<Impl>(std::move(options));
    boost::system::error_code ec;
    impl->server_tls.use_certificate_chain_file(impl->options.serving_cert_file, ec);
    if (!ec)
        impl->server_tls.use_private_key_file(impl->options.serving_key_file, ssl::context::pem, ec);
    if (!ec)
        impl->client_tls.load_verify_file(impl->options.upstream_ca_file, ec);
    if (ec)
        return InternalError("fault proxy: loading its certificates: " + ec.message());
    impl->client_tls.set_verify_mode(ssl::verify_peer);
    const asio::ip::address upstream = asio::ip::make_address(impl->options.upstream_host, ec);
    if (ec)
        return BadRequestError("fault proxy: upstream host " + impl->options.upstream_host + " is not an IP address");
    impl->upstream = tcp::endpoint(upstream, static_cast<unsigned short>(impl->options.upstream_port));
    const tcp::endpoint listen(asio::ip::make_address("127.0.0.1"), 0);
    impl->acceptor.open(listen.protocol(), ec);
    if (!ec)
        impl->acceptor.bind(listen, ec);
    if (!ec)
        impl->acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec)
        return UnavailableError("fault proxy: cannot listen on 127.0.0.1: " + ec.message());
    impl->port = impl->acceptor.local_endpoint().port();
    asio::co_spawn(impl->io, impl->Accept(), asio::detached);
    impl->thread = std::thread([raw = impl.get()] { raw->io.run(); });
    return std::unique_ptr<FaultHttpProxy>(new FaultHttpProxy(std::move(impl)));
}

FaultHttpProxy::~FaultHttpProxy() {
    // Stops the loop; destroying Impl then closes the acceptor and every connection (see Impl).
    impl_->io.stop();
    if (impl_->thread.joinable())
        impl_->thread.join();
}

int FaultHttpProxy::Port() const {
    return impl_->port;
}

void FaultHttpProxy::SetFaults(FaultMix mix) {
    std::lock_guard lock(impl_->mu);
    impl_->mix = mix;
}

FaultHttpProxy::Counts FaultHttpProxy::Totals() const {
    std::lock_guard lock(impl_->mu);
    return impl_->counts;
}

}  // namespace ctrl::testing
