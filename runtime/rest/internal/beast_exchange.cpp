#include "ctrl/rest/internal/beast_exchange.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <string_view>
#include <utility>

#include <boost/asio/ssl/error.hpp>
#include <boost/beast/http/error.hpp>

namespace ctrl::rest::internal {
namespace {

namespace http = boost::beast::http;

// RFC 9110 token characters: methods and header names.
bool IsToken(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
        return std::isalnum(c) ||
               std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
    });
}

bool HasControl(std::string_view s) {
    return std::any_of(s.begin(), s.end(), [](unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; });
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
               return std::tolower(x) == std::tolower(y);
           });
}

// Safe to send twice: Go's net/http replays the same set on a connection that died unused.
bool IsReplayable(const WireRequest& request) {
    const auto method = request.method_string();
    return method == "GET" || method == "HEAD" || method == "OPTIONS" || method == "TRACE";
}

// Whether a failed attempt may be sent again on a new connection: only when it went out on a
// reused connection that died before answering (not our own timeout or cancel), and sending twice
// is safe (a replayable method, or nothing was written).
bool MayRetryOnNewConnection(bool reused, const BeastWatchdog& watchdog, bool got_response_bytes,
                             const WireRequest& request, std::size_t written) {
    return reused && watchdog.Fired().Ok() && !got_response_bytes && (IsReplayable(request) || written == 0);
}

// Connects a new connection, then writes the request, both under the watchdog. `written` says
// how many bytes of the request left.
Task<Status> ConnectAndWrite(const BeastServer& server, BeastConnection& connection, const WireRequest& request,
                             const Deadline& deadline, const std::string& description, BeastWatchdog& watchdog,
                             std::size_t& written) {
    if (!connection.Connected()) {
        Deadline connect_deadline = deadline;
        if (server.options.connect_timeout.count() > 0) {
            connect_deadline =
                Earliest(deadline, {Clock::now() + server.options.connect_timeout,
                                    "connect timeout of " + FormatDuration(server.options.connect_timeout)});
        }
        watchdog.ExpireAt(connect_deadline);
        const Status connected = co_await connection.Connect(server.url, server.options.tls);
        if (!watchdog.Fired().Ok())
            co_return watchdog.Fired().Annotate(description);
        if (!connected.Ok())
            co_return connected;
    }
    watchdog.ExpireAt(deadline);
    const error_code ec = co_await connection.Write(request, written);
    if (ec)
        co_return DescribeIoFailure(description, "writing the request", ec, watchdog);
    co_return OkStatus();
}

}  // namespace

BeastServer::BeastServer(boost::asio::any_io_executor executor_in, ServerUrl url_in, TransportOptions options_in,
                         std::shared_ptr<boost::asio::ssl::context> tls_context_in, std::string user_agent_in)
    : executor(std::move(executor_in)),
      url(std::move(url_in)),
      options(std::move(options_in)),
      tls_context(std::move(tls_context_in)),
      user_agent(std::move(user_agent_in)),
      // Go's http.DefaultTransport forgets an idle connection after 90 s.
      pool(options.max_idle_connections, std::chrono::seconds(90)) {}

StatusOr<WireRequest> BuildWireRequest(const BeastServer& server, HttpRequest request) {
    if (!IsToken(request.method))
        return BadRequestError("invalid HTTP method \"" + request.method + "\"");
    if (request.target.empty() || request.target.front() != '/' || HasControl(request.target) ||
        request.target.find(' ') != std::string::npos) {
        return BadRequestError("invalid request target \"" + request.target + "\": want an escaped absolute path");
    }
    WireRequest wire;
    wire.version(11);
    wire.method_string(request.method);
    wire.target(server.url.base_path + request.target);
    for (const Header& header : request.headers) {
        if (!IsToken(header.name) || HasControl(header.value))
            return BadRequestError("invalid HTTP header \"" + header.name + "\"");
        if (EqualsIgnoreCase(header.name, "Content-Length") || EqualsIgnoreCase(header.name, "Transfer-Encoding"))
            continue;
        wire.insert(header.name, header.value);
    }
    if (wire.find(http::field::host) == wire.end())
        wire.set(http::field::host, server.url.HostHeader());
    if (wire.find(http::field::user_agent) == wire.end())
        wire.set(http::field::user_agent, server.user_agent);
    const bool expects_body = request.method == "POST" || request.method == "PUT" || request.method == "PATCH";
    if (!request.body.empty() || expects_body)
        wire.content_length(request.body.size());
    wire.body() = std::move(request.body);
    return wire;
}

Deadline RequestDeadline(std::chrono::milliseconds timeout) {
    if (timeout.count() <= 0)
        return {};
    return {Clock::now() + timeout, "request timeout of " + FormatDuration(timeout)};
}

std::vector<Header> CopyHeaders(const http::fields& fields) {
    std::vector<Header> out;
    for (const auto& field : fields)
        out.push_back({std::string(field.name_string()), std::string(field.value())});
    return out;
}

Status DescribeIoFailure(const std::string& description, std::string_view what, const error_code& ec,
                         const BeastWatchdog& watchdog) {
    if (!watchdog.Fired().Ok())
        return watchdog.Fired().Annotate(description);
    if (ec == http::error::body_limit) {
        return InternalError(description + ": the response body is larger than the limit of " +
                             std::to_string(kMaxBodyBytes >> 20) + " MiB");
    }
    if (ec == http::error::header_limit) {
        return InternalError(description + ": the response header is larger than the limit of " +
                             std::to_string(kMaxHeaderBytes >> 10) + " KiB");
    }
    std::string reason = ec.message();
    if (ec == http::error::end_of_stream || ec == boost::asio::error::eof ||
        ec == boost::asio::ssl::error::stream_truncated) {
        reason = "the server closed the connection";
    }
    return UnavailableError(description + ": " + std::string(what) + ": " + reason);
}

Task<AttemptResult> SendAttempt(Context ctx, std::shared_ptr<BeastServer> server,
                                std::shared_ptr<BeastConnection> connection, bool reused, const WireRequest& request,
                                Deadline deadline, const std::string& description, HttpResponse& response) {
    BeastWatchdog watchdog(ctx, connection->GetStrand(), [raw = connection.get()] { raw->Abort(); });
    std::size_t written = 0;
    Status status = co_await ConnectAndWrite(*server, *connection, request, deadline, description, watchdog, written);
    FullResponseParser parser;
    parser.header_limit(kMaxHeaderBytes);
    parser.body_limit(kMaxBodyBytes);
    parser.skip(request.method_string() == "HEAD");
    if (status.Ok()) {
        const error_code ec = co_await connection->Read(parser);
        if (ec)
            status = DescribeIoFailure(description, "reading the response", ec, watchdog);
    }
    watchdog.Disarm();
    if (!status.Ok()) {
        const bool retriable = MayRetryOnNewConnection(reused, watchdog, parser.got_some(), request, written);
        connection->Abort();
        co_return AttemptResult{status, retriable};
    }
    const bool keep_alive = parser.keep_alive();
    http::response<http::string_body> message = parser.release();
    response.status = static_cast<int>(message.result_int());
    response.headers = CopyHeaders(message.base());
    response.body = std::move(message.body());
    if (keep_alive) {
        server->pool.PutIdle(std::move(connection));
    } else {
        connection->Abort();
    }
    co_return AttemptResult{};
}

Task<AttemptResult> OpenAttempt(Context ctx, std::shared_ptr<BeastServer> server,
                                std::shared_ptr<BeastConnection> connection, bool reused, const WireRequest& request,
                                Deadline deadline, const std::string& description, StreamResponseParser& parser) {
    BeastWatchdog watchdog(ctx, connection->GetStrand(), [raw = connection.get()] { raw->Abort(); });
    std::size_t written = 0;
    Status status = co_await ConnectAndWrite(*server, *connection, request, deadline, description, watchdog, written);
    parser.header_limit(kMaxHeaderBytes);
    // A watch never ends by itself. Not boost::none: Boost 1.74 compares a Content-Length with an
    // unset limit as if the limit were smaller.
    parser.body_limit(std::numeric_limits<std::uint64_t>::max());
    if (status.Ok()) {
        const error_code ec = co_await connection->ReadHeader(parser);
        if (ec)
            status = DescribeIoFailure(description, "reading the response header", ec, watchdog);
    }
    watchdog.Disarm();
    if (!status.Ok()) {
        const bool retriable = MayRetryOnNewConnection(reused, watchdog, parser.got_some(), request, written);
        connection->Abort();
        co_return AttemptResult{status, retriable};
    }
    co_return AttemptResult{};
}

}  // namespace ctrl::rest::internal
