#include "ctrl/server/http_server.hpp"

// Boost 1.74's awaitable.hpp needs <utility> first: task.hpp includes it in that order.
#include "ctrl/core/task.hpp"

#include <exception>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "ctrl/server/internal/http_connection.hpp"
#include "ctrl/server/internal/http_server_state.hpp"
#include "ctrl/server/internal/server_tls.hpp"

namespace ctrl::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

HttpServer::State::State(net::any_io_executor executor_in, HttpServerOptions options_in, BindAddress address_in)
    : executor(std::move(executor_in)),
      options(std::move(options_in)),
      address(std::move(address_in)),
      logger(log::Logger().WithName("manager").WithName("http").WithValues("server", options.name)),
      acceptor_strand(net::make_strand(executor)),
      acceptor(acceptor_strand) {}

HttpServer::State::Route HttpServer::State::RouteOf(const std::string& path) const {
    std::lock_guard lock(mu);
    if (auto it = exact_routes.find(path); it != exact_routes.end())
        return it->second;
    // The longest prefix sorts last among those that match.
    Route found;
    for (const auto& [prefix, route] : prefix_routes) {
        if (path.compare(0, prefix.size(), prefix) == 0)
            found = route;
    }
    return found;
}

std::optional<uint64_t> HttpServer::State::AddConnection(std::function<void()> close) {
    std::lock_guard lock(mu);
    if (stopping || connections.size() >= static_cast<size_t>(options.max_connections))
        return std::nullopt;
    const uint64_t id = next_connection_id++;
    connections.emplace(id, std::move(close));
    return id;
}

void HttpServer::State::RemoveConnection(uint64_t id) {
    std::optional<Resume<int>> resume;
    {
        std::lock_guard lock(mu);
        connections.erase(id);
        if (stopping && connections.empty() && drained) {
            resume = std::move(drained);
            drained.reset();
        }
    }
    if (resume)
        (*resume)(0);
}

void HttpServer::State::CloseAll() {
    std::map<uint64_t, std::function<void()>> live;
    {
        std::lock_guard lock(mu);
        stopping = true;
        live = connections;
    }
    for (const auto& [id, close] : live)
        close();
}

Task<int> HttpServer::State::Drained() {
    auto start = [this](Resume<int> resume) {
        bool now = false;
        {
            std::lock_guard lock(mu);
            if (connections.empty())
                now = true;
            else
                drained = resume;
        }
        if (now)
            resume(0);
    };
    co_return co_await Suspend<int>(std::move(start));
}

namespace {

// Accepts until the acceptor is closed, spawning a connection coroutine on its own strand.
Task<void> AcceptLoop(std::shared_ptr<HttpServer::State> state) {
    for (;;) {
        boost::system::error_code ec;
        tcp::socket socket = co_await state->acceptor.async_accept(net::make_strand(state->executor),
                                                                   net::redirect_error(net::use_awaitable, ec));
        if (ec == net::error::operation_aborted || !state->acceptor.is_open())
            co_return;
        if (ec) {
            // Out of descriptors and the like: log, breathe, go on.
            state->logger.Error(UnavailableError(ec.message()), "accept failed");
            net::steady_timer pause(co_await net::this_coro::executor, std::chrono::milliseconds(100));
            co_await pause.async_wait(net::redirect_error(net::use_awaitable, ec));
            continue;
        }
        auto executor = socket.get_executor();
        net::co_spawn(executor, internal::ServeConnection(state, std::move(socket)), net::detached);
    }
}

}  // namespace

HttpServer::HttpServer(std::shared_ptr<State> state) : state_(std::move(state)) {}
HttpServer::~HttpServer() = default;

StatusOr<std::unique_ptr<HttpServer>> HttpServer::New(net::any_io_executor executor, HttpServerOptions options) {
    if (!executor)
        return BadRequestError("HttpServer needs an executor");
    if (options.max_connections < 1)
        return BadRequestError("HttpServer max_connections must be at least 1");
    CTRL_ASSIGN_OR_RETURN(BindAddress address, ParseBindAddress(options.bind_address));
    auto state = std::make_shared<State>(std::move(executor), std::move(options), address);
    if (address.disabled)
        return std::unique_ptr<HttpServer>(new HttpServer(std::move(state)));
    if (state->options.serve_tls) {
        if (state->options.certificates) {
            CTRL_ASSIGN_OR_RETURN(state->tls, internal::NewServerTlsContext(state->options.certificates));
        } else {
            CTRL_ASSIGN_OR_RETURN(state->tls,
                                  internal::NewServerTlsContext(state->options.cert_file, state->options.key_file));
        }
    }
    boost::system::error_code ec;
    const tcp::endpoint endpoint(net::ip::make_address(address.host, ec), address.port);
    if (!ec)
        state->acceptor.open(endpoint.protocol(), ec);
    if (!ec)
        state->acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec)
        state->acceptor.bind(endpoint, ec);
    if (!ec)
        state->acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec) {
        return UnavailableError(state->options.name + " server: cannot listen on " + address.ToString() + ": " +
                                ec.message());
    }
    state->bound_port = state->acceptor.local_endpoint().port();
    return std::unique_ptr<HttpServer>(new HttpServer(std::move(state)));
}

void HttpServer::Handle(std::string path, HttpHandler handler) {
    std::lock_guard lock(state_->mu);
    state_->exact_routes[std::move(path)] = State::Route{std::move(handler), false};
}

void HttpServer::HandlePost(std::string path, HttpHandler handler) {
    std::lock_guard lock(state_->mu);
    state_->exact_routes[std::move(path)] = State::Route{std::move(handler), true};
}

void HttpServer::HandlePrefix(std::string prefix, HttpHandler handler) {
    std::lock_guard lock(state_->mu);
    state_->prefix_routes[std::move(prefix)] = State::Route{std::move(handler), false};
}

std::string HttpServer::Name() const {
    return state_->options.name + " server";
}

bool HttpServer::Disabled() const {
    return state_->address.disabled;
}

uint16_t HttpServer::BoundPort() const {
    return state_->bound_port;
}

std::string HttpServer::Url() const {
    if (Disabled())
        return "";
    BindAddress shown = state_->address;
    shown.port = state_->bound_port;
    if (shown.host == "0.0.0.0")
        shown.host = "127.0.0.1";
    return (state_->tls ? "https://" : "http://") + shown.ToString();
}

Task<Status> HttpServer::Run(Context ctx) {
    if (Disabled())
        co_return OkStatus();
    std::shared_ptr<State> state = state_;
    state->run_ctx = ctx;
    state->logger.Info("serving", "address", Url());
    auto close_listener = [state](const Status&) {
        net::post(state->acceptor_strand, [state] {
            boost::system::error_code ignored;
            state->acceptor.close(ignored);
        });
    };
    const Context::CallbackId cancel_id = ctx.OnCancel(close_listener);
    try {
        co_await net::co_spawn(state->acceptor_strand, AcceptLoop(state), net::use_awaitable);
    } catch (const std::exception& e) {
        state->logger.Error(InternalError(e.what()), "accept loop failed");
    }
    ctx.RemoveCallback(cancel_id);
    close_listener(OkStatus());
    state->CloseAll();
    co_await state->Drained();
    state->logger.Info("stopped", "address", Url());
    co_return OkStatus();
}

}  // namespace ctrl::server
