#pragma once

#include <cstddef>
#include <memory>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::rest {

// The cpprestsdk (C++ REST SDK) implementation of Transport, the alternative to the Boost.Beast
// default (docs/decisions.md, decision 9; cpprestsdk is archived upstream). cpprestsdk does its I/O on its
// own process-wide thread pool; every Send, Open and ReadSome continues on the caller's executor,
// never on that pool. What differs from the Beast transport, because cpprestsdk allows no better:
//  - One idle timer covers connecting, the TLS handshake, the response headers and every read of
//    the body: TransportOptions::idle_timeout (default 5 min) is that timer, so connect_timeout
//    is not enforced on its own. HttpRequest::timeout and Context deadlines are enforced by the
//    transport with its own timer, which cancels the exchange.
//  - Connections are pooled by cpprestsdk (kept while in use, closed after ~30-60 s idle);
//    max_idle_connections is not used. No proxy support; redirects are not followed.
//  - Watch bodies: cpprestsdk writes into a bounded queue (about 1 MiB plus one HTTP chunk) and
//    waits when it is full, so a slow reader stops it reading the socket. cpprestsdk's own
//    default body buffer has no bound and no backpressure, and its read_line is slow (~10 MB/s);
//    this transport uses neither.
// Safe to use from several coroutines at once. The executor must outlive every operation.
//
// `executor` is where operations continue (normally the Manager's io_context). Fails with
// BadRequest when the server URL or the TLS PEM data is malformed.
StatusOr<std::unique_ptr<Transport>> NewCppRestTransport(boost::asio::any_io_executor executor,
                                                         TransportOptions options);

// Sizes cpprestsdk's process-wide thread pool, which otherwise starts 40 threads on first use.
// NewCppRestTransport calls it with kDefaultCppRestThreads when nobody did; call it earlier to
// choose another size. Only the first call in a process has an effect: returns false when the
// pool was already sized (by an earlier call, or by other code that used cpprestsdk first).
bool InitializeCppRestThreads(std::size_t threads);
inline constexpr std::size_t kDefaultCppRestThreads = 2;

}  // namespace ctrl::rest
