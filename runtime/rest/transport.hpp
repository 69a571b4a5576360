#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::rest {

// One HTTP header.
struct Header {
    std::string name{};
    std::string value{};
};

// An HTTP request to the API server. The transport adds Host, User-Agent, Content-Length and
// Connection handling; the caller adds Accept, Content-Type and Authorization.
struct HttpRequest {
    std::string method = "GET";
    // Path and query, already escaped: "/api/v1/namespaces/default/pods?limit=500".
    std::string target{};
    std::vector<Header> headers{};
    std::string body{};
    // The whole exchange (for Open: until the response headers); zero means none. The
    // Context's deadline applies as well; the earlier one wins.
    std::chrono::milliseconds timeout{0};

    // The first header with that name (case-insensitive), if any.
    std::optional<std::string_view> FindHeader(std::string_view name) const;
    void SetHeader(std::string name, std::string value);
};

// The first header with that name (case-insensitive) among headers, if any.
std::optional<std::string_view> FindHeader(const std::vector<Header>& headers, std::string_view name);

// A complete HTTP response, any status code.
struct HttpResponse {
    int status = 0;
    std::vector<Header> headers{};
    std::string body{};

    std::optional<std::string_view> FindHeader(std::string_view name) const;
};

// A response whose body is read as it arrives: a watch. Not thread-safe: one reader at a time.
class BodyStream {
  public:
    virtual ~BodyStream() = default;
    virtual int StatusCode() const = 0;
    virtual const std::vector<Header>& Headers() const = 0;
    // Reads the next bytes of the body into data (at most size) and returns how many; 0 means
    // the body ended cleanly. Unavailable when the connection drops mid-body, Timeout when
    // idle_timeout passes without a byte, Cancelled when ctx is cancelled.
    virtual Task<StatusOr<std::size_t>> ReadSome(Context ctx, char* data, std::size_t size) = 0;
    // Stops the stream and releases its connection (never reused). Safe to call twice.
    virtual void Close() = 0;
};

// TLS settings for the connection to the API server.
struct TlsOptions {
    std::string ca_pem{};           // trust these CAs (PEM); empty: the system's trust store
    std::string client_cert_pem{};  // client certificate chain (PEM); empty: none
    std::string client_key_pem{};   // its private key (PEM)
    bool insecure_skip_verify = false;
    std::string server_name{};  // SNI and the name verified; empty: the server URL's host
};

// How a transport reaches one API server.
struct TransportOptions {
    std::string server{};  // "https://127.0.0.1:6443" or "http://..." (default port from scheme)
    TlsOptions tls{};
    std::string user_agent{};                                             // default "ctrl/<version>"
    std::chrono::milliseconds connect_timeout{std::chrono::seconds(30)};  // TCP + TLS handshake
    std::chrono::milliseconds idle_timeout{std::chrono::minutes(5)};      // streams: max gap between bytes
    std::size_t max_idle_connections = 16;                                // kept for reuse
};

// Sends requests to one API server. Implementations: Boost.Beast (the default) and cpprestsdk
// (rest/cpprest_transport.hpp), both run the same conformance tests. Errors are transport
// failures only (an HTTP error status is a response): Unavailable for connection and TLS
// failures, naming the server and the cause; Timeout; Cancelled. Safe to use from several
// coroutines at once.
class Transport {
  public:
    virtual ~Transport() = default;
    // Sends the request and reads the whole response.
    virtual Task<StatusOr<HttpResponse>> Send(Context ctx, HttpRequest request) = 0;
    // Sends the request and returns once the response headers are read; the body is read
    // from the stream.
    virtual Task<StatusOr<std::unique_ptr<BodyStream>>> Open(Context ctx, HttpRequest request) = 0;
};

// Which implementation of Transport to use.
enum class TransportKind { kBeast, kCppRest };

}  // namespace ctrl::rest
