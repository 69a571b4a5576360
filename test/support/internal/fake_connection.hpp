#pragma once

#include <memory>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include "ctrl/core/task.hpp"
#include "test/support/internal/fake_script.hpp"

namespace ctrl::testing::internal {

// Serves one accepted connection of the fake API server: the TLS handshake when `tls` is set,
// then requests one after another (keep-alive), each recorded in the script and answered as it
// says. Ends when the client closes, a script drops or closes the connection, or the io_context
// is stopped and destroyed (the coroutine and its socket are destroyed with it).
Task<void> ServeFakeConnection(boost::asio::ip::tcp::socket socket, std::shared_ptr<boost::asio::ssl::context> tls,
                               std::shared_ptr<FakeScript> script);

}  // namespace ctrl::testing::internal
