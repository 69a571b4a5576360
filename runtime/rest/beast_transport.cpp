#include "ctrl/rest/beast_transport.hpp"

// Boost 1.74's awaitable.hpp needs <utility> first: task.hpp includes it in that order.
#include "ctrl/core/task.hpp"

#include <exception>
#include <string>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "ctrl/rest/internal/beast_body_stream.hpp"
#include "ctrl/rest/internal/beast_connection.hpp"
#include "ctrl/rest/internal/beast_exchange.hpp"
#include "ctrl/rest/internal/beast_server_url.hpp"
#include "ctrl/rest/internal/beast_tls_context.hpp"

#ifndef CTRL_VERSION
#define CTRL_VERSION "unknown"
#endif

namespace ctrl::rest {
namespace {

namespace net = boost::asio;
using internal::AttemptResult;
using internal::BeastConnection;
using internal::BeastServer;

class BeastTransport final : public Transport {
  public:
    explicit BeastTransport(std::shared_ptr<BeastServer> server) : server_(std::move(server)) {}

    Task<StatusOr<HttpResponse>> Send(Context ctx, HttpRequest request) override;
    Task<StatusOr<std::unique_ptr<BodyStream>>> Open(Context ctx, HttpRequest request) override;

  private:
    // An idle pooled connection (the first attempt only) or a new one.
    StatusOr<std::shared_ptr<BeastConnection>> Acquire(bool allow_reuse, bool& reused) const;

    std::shared_ptr<BeastServer> server_;
};

StatusOr<std::shared_ptr<BeastConnection>> BeastTransport::Acquire(bool allow_reuse, bool& reused) const {
    if (allow_reuse) {
        if (auto idle = server_->pool.TakeIdle()) {
            reused = true;
            return idle;
        }
    }
    reused = false;
    return BeastConnection::Create(server_->executor, server_->tls_context);
}

Task<StatusOr<HttpResponse>> BeastTransport::Send(Context ctx, HttpRequest request) {
    const std::string description = request.method + " " + server_->url.text + request.target;
    if (Status err = ctx.Err(); !err.Ok())
        co_return err.Annotate(description);
    const internal::Deadline deadline = internal::RequestDeadline(request.timeout);
    CTRL_CO_ASSIGN_OR_RETURN(const internal::WireRequest wire,
                             internal::BuildWireRequest(*server_, std::move(request)));
    for (int attempt = 1;; ++attempt) {
        bool reused = false;
        CTRL_CO_ASSIGN_OR_RETURN(std::shared_ptr<BeastConnection> connection, Acquire(attempt == 1, reused));
        HttpResponse response;
        AttemptResult result;
        try {
            result = co_await net::co_spawn(
                connection->GetStrand(),
                internal::SendAttempt(ctx, server_, connection, reused, wire, deadline, description, response),
                net::use_awaitable);
        } catch (const std::exception& e) {
            result.status = InternalError(description + ": " + e.what());
        }
        if (result.status.Ok())
            co_return response;
        if (!result.retriable || attempt > 1)
            co_return result.status;
    }
}

Task<StatusOr<std::unique_ptr<BodyStream>>> BeastTransport::Open(Context ctx, HttpRequest request) {
    const std::string description = request.method + " " + server_->url.text + request.target;
    const std::string stream_description =
        "watch stream from " + server_->url.text + request.target.substr(0, request.target.find('?'));
    if (Status err = ctx.Err(); !err.Ok())
        co_return err.Annotate(description);
    const internal::Deadline deadline = internal::RequestDeadline(request.timeout);
    CTRL_CO_ASSIGN_OR_RETURN(const internal::WireRequest wire,
                             internal::BuildWireRequest(*server_, std::move(request)));
    for (int attempt = 1;; ++attempt) {
        bool reused = false;
        CTRL_CO_ASSIGN_OR_RETURN(std::shared_ptr<BeastConnection> connection, Acquire(attempt == 1, reused));
        auto parser = std::make_unique<internal::StreamResponseParser>();
        AttemptResult result;
        try {
            result = co_await net::co_spawn(
                connection->GetStrand(),
                internal::OpenAttempt(ctx, server_, connection, reused, wire, deadline, description, *parser),
                net::use_awaitable);
        } catch (const std::exception& e) {
            result.status = InternalError(description + ": " + e.what());
        }
        if (result.status.Ok()) {
            co_return std::unique_ptr<BodyStream>(std::make_unique<internal::BeastBodyStream>(
                std::move(connection), std::move(parser), stream_description, server_->options.idle_timeout));
        }
        if (!result.retriable || attempt > 1)
            co_return result.status;
    }
}

}  // namespace

StatusOr<std::unique_ptr<Transport>> NewBeastTransport(net::any_io_executor executor, TransportOptions options) {
    if (!executor)
        return BadRequestError("NewBeastTransport needs an executor");
    CTRL_ASSIGN_OR_RETURN(internal::ServerUrl url, internal::ParseServerUrl(options.server));
    std::shared_ptr<net::ssl::context> tls_context;
    if (url.tls) {
        CTRL_ASSIGN_OR_RETURN(tls_context, internal::NewTlsContext(options.tls));
    }
    std::string user_agent = options.user_agent.empty() ? std::string("ctrl/") + CTRL_VERSION : options.user_agent;
    auto server = std::make_shared<BeastServer>(std::move(executor), std::move(url), std::move(options),
                                                std::move(tls_context), std::move(user_agent));
    return std::unique_ptr<Transport>(std::make_unique<BeastTransport>(std::move(server)));
}

}  // namespace ctrl::rest
