#pragma once

// Boost 1.74's awaitable.hpp needs <utility> first: task.hpp includes it in that order.
#include "ctrl/core/task.hpp"

#include <memory>

#include <boost/asio/ip/tcp.hpp>

#include "ctrl/server/internal/http_server_state.hpp"

namespace ctrl::server::internal {

// Serves one accepted connection (TLS when state->tls is set) until the client closes it, a
// deadline passes, a request is bad, or the server closes it; run it on the socket's strand.
// Never throws; counts itself in and out of state's connections.
Task<void> ServeConnection(std::shared_ptr<HttpServer::State> state, boost::asio::ip::tcp::socket socket);

}  // namespace ctrl::server::internal
