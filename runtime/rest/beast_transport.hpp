#pragma once

#include <memory>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::rest {

// The default Transport: HTTP/1.1 with Boost.Beast over TLS (OpenSSL) or, for tests, plain TCP,
// as C++20 coroutines on `executor` (which any number of threads may run; no thread is started).
//
// - TLS: the server's certificate is verified against options.tls.ca_pem (else the system's
//   trust store) and must name tls.server_name or the URL's host (an IP literal is matched
//   against IP SANs and is never sent as SNI); a client certificate and key are presented when
//   given; insecure_skip_verify turns verification off. A failed handshake is Unavailable:
//   "TLS handshake with https://10.0.0.1:6443 failed: certificate verify failed (<reason>)".
// - Keep-alive: up to options.max_idle_connections idle connections are kept (90 s at most) and
//   reused; a request that fails on a reused connection before any byte of a response arrives
//   is sent once more on a fresh connection when that is safe (GET, HEAD, OPTIONS, TRACE, or
//   nothing was written).
// - Deadlines: request.timeout and the Context's deadline, the earlier one, bound the whole
//   exchange (for Open: up to the response header) -> Timeout; options.connect_timeout bounds
//   the TCP connect plus TLS handshake; a cancelled Context ends the call with its reason
//   (Cancelled) by closing the connection.
// - Send reads the whole body (at most 1 GiB; Content-Length or chunked). Open returns after the
//   header; its BodyStream reads only when asked, fails with Timeout after options.idle_timeout
//   without a byte and with Unavailable when the connection drops mid-body, and its connection
//   is never reused.
// - A path in options.server ("https://host/k8s/clusters/c-1") prefixes every request target.
//
// BadRequest for a malformed server URL or bad PEM data (naming the field). The transport may
// be destroyed while calls are in flight; they finish normally. Everything is thread-safe; the
// executor must outlive the transport and its streams.
StatusOr<std::unique_ptr<Transport>> NewBeastTransport(boost::asio::any_io_executor executor, TransportOptions options);

}  // namespace ctrl::rest
