#pragma once

// Boost 1.74's awaitable.hpp needs <utility> first: task.hpp includes it in that order.
#include "ctrl/core/task.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/strand.hpp>

#include "ctrl/core/resume.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/server/bind_address.hpp"
#include "ctrl/server/http_server.hpp"

namespace ctrl::server {

// What an HttpServer's listener and connections share: the options, the routes, and the live
// connections (so Run can close them and wait for them). Thread-safe.
struct HttpServer::State {
    using Strand = boost::asio::strand<boost::asio::any_io_executor>;

    State(boost::asio::any_io_executor executor, HttpServerOptions options, BindAddress address);

    // A registered path: its handler and whether it serves POST (else GET and HEAD).
    struct Route {
        HttpHandler handler;
        bool post = false;
    };
    // The route of path: its exact one, else its longest prefix's; no handler when none.
    Route RouteOf(const std::string& path) const;

    // Counts a new connection in and returns its id, or nullopt when max_connections are served
    // or the server is stopping. close must be callable from any thread, more than once.
    std::optional<uint64_t> AddConnection(std::function<void()> close);
    // Counts a connection out; the last one out after CloseAll resumes the waiting Run.
    void RemoveConnection(uint64_t id);
    // Stops admitting connections and closes every live one.
    void CloseAll();
    // Ends when no connection is left (after CloseAll).
    Task<int> Drained();

    const boost::asio::any_io_executor executor;
    const HttpServerOptions options;
    const BindAddress address;
    const log::Logger logger;
    Strand acceptor_strand;
    boost::asio::ip::tcp::acceptor acceptor;         // used on acceptor_strand only
    std::shared_ptr<boost::asio::ssl::context> tls;  // null for plain HTTP
    uint16_t bound_port = 0;
    Context run_ctx = Context::Background();  // Run's, set before the first connection is accepted

    mutable std::mutex mu;
    std::map<std::string, Route> exact_routes;
    std::map<std::string, Route> prefix_routes;
    std::map<uint64_t, std::function<void()>> connections;
    uint64_t next_connection_id = 1;
    bool stopping = false;
    std::optional<Resume<int>> drained;
};

}  // namespace ctrl::server
