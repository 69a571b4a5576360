#pragma once

// Boost 1.74's awaitable.hpp needs <utility> first: task.hpp includes it in that order.
#include "ctrl/core/task.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/http/fields.hpp>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/internal/beast_connection.hpp"
#include "ctrl/rest/internal/beast_connection_pool.hpp"
#include "ctrl/rest/internal/beast_server_url.hpp"
#include "ctrl/rest/internal/beast_watchdog.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::rest::internal {

// A response body larger than this fails Send (a list of 10k pods is ~100 MB).
inline constexpr std::uint64_t kMaxBodyBytes = std::uint64_t{1} << 30;
// Response headers larger than this fail the request (Beast's default of 8 KiB is too small for
// a server that sends many Warning headers).
inline constexpr std::uint32_t kMaxHeaderBytes = 1 << 20;

// What every request of one Beast transport shares. Immutable after construction, except the
// pool, which is thread-safe; requests in flight keep it alive.
struct BeastServer {
    BeastServer(boost::asio::any_io_executor executor, ServerUrl url, TransportOptions options,
                std::shared_ptr<boost::asio::ssl::context> tls_context, std::string user_agent);

    boost::asio::any_io_executor executor;
    ServerUrl url;
    TransportOptions options;
    std::shared_ptr<boost::asio::ssl::context> tls_context;  // null for plain http
    std::string user_agent;
    BeastConnectionPool pool;
};

// How one attempt of a request on one connection ended.
struct AttemptResult {
    Status status;  // OK: the whole response (Send) or its header (Open) was read
    // It failed on a reused connection before any byte of a response arrived, and the request
    // may be sent again (an idempotent method, or nothing was written): retry on a fresh one.
    bool retriable = false;
};

// The request as written: the target under the server's base path, Host, User-Agent and
// Content-Length added (a caller's Content-Length and Transfer-Encoding are replaced). BadRequest
// for a malformed method, target or header.
StatusOr<WireRequest> BuildWireRequest(const BeastServer& server, HttpRequest request);

// The request's own deadline, from its timeout (zero: none). The Context's deadline is not in it:
// it cancels the Context by itself, which the watchdog hears.
Deadline RequestDeadline(std::chrono::milliseconds timeout);

// The headers of a response, as the transport interface shows them.
std::vector<Header> CopyHeaders(const boost::beast::http::fields& fields);

// One attempt of Transport::Send on `connection`; runs on the connection's strand. Connects it
// when new (within options.connect_timeout), writes the request, reads the whole response into
// `response`, and returns the connection to the pool when the server allows keep-alive.
// `description` ("GET https://host:6443/version") prefixes messages.
Task<AttemptResult> SendAttempt(Context ctx, std::shared_ptr<BeastServer> server,
                                std::shared_ptr<BeastConnection> connection, bool reused, const WireRequest& request,
                                Deadline deadline, const std::string& description, HttpResponse& response);

// One attempt of Transport::Open: the same up to the response header, read into `parser`. The
// connection then belongs to the caller's body stream.
Task<AttemptResult> OpenAttempt(Context ctx, std::shared_ptr<BeastServer> server,
                                std::shared_ptr<BeastConnection> connection, bool reused, const WireRequest& request,
                                Deadline deadline, const std::string& description, StreamResponseParser& parser);

// Why an I/O operation of a request failed: the watchdog's reason when it fired, else
// Unavailable (Internal for a response over the size limits) naming `what` was being done.
Status DescribeIoFailure(const std::string& description, std::string_view what, const error_code& ec,
                         const BeastWatchdog& watchdog);

}  // namespace ctrl::rest::internal
