#include "ctrl/rest/rest_client.hpp"

#include <charconv>
#include <chrono>

#include "ctrl/core/sleep.hpp"
#include "ctrl/rest/api_status.hpp"
#include "ctrl/rest/beast_transport.hpp"
#include "ctrl/rest/cpprest_transport.hpp"
#include "ctrl/rest/internal/request_log.hpp"

#ifndef CTRL_VERSION
#define CTRL_VERSION "0.0.0"
#endif

namespace ctrl::rest {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kMaxErrorBody = 1 << 20;
// A client-side rate limiter wait longer than this is logged (client-go's throttling message).
constexpr std::chrono::seconds kLongThrottle{1};

// "host:port" of a server URL, the `host` label client-go uses.
std::string HostLabel(std::string_view server) {
    if (auto scheme = server.find("://"); scheme != std::string_view::npos)
        server.remove_prefix(scheme + 3);
    if (auto slash = server.find('/'); slash != std::string_view::npos)
        server = server.substr(0, slash);
    return std::string(server);
}

std::optional<std::chrono::seconds> ParseSeconds(std::optional<std::string_view> value) {
    if (!value)
        return std::nullopt;
    int64_t seconds = 0;
    auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), seconds);
    if (ec != std::errc() || end != value->data() + value->size() || seconds < 0)
        return std::nullopt;
    return std::chrono::seconds(seconds);
}

// Reads what is left of an error answer's body, bounded.
Task<std::string> ReadErrorBody(Context ctx, BodyStream& stream) {
    std::string body;
    char buffer[16 * 1024];
    while (body.size() < kMaxErrorBody) {
        StatusOr<std::size_t> n = co_await stream.ReadSome(ctx, buffer, sizeof buffer);
        if (!n.Ok() || *n == 0)
            break;
        body.append(buffer, *n);
    }
    co_return body;
}

// Whether the request takes JSON answers (its Accept header, application/json when it has none).
bool WantsJson(const HttpRequest& request) {
    const std::optional<std::string_view> accept = request.FindHeader("Accept");
    return !accept || accept->find("json") != std::string_view::npos;
}

// Whether headers give an HTML Content-Type (a watch answered by a proxy's or a login page).
bool IsHtmlContentType(const std::vector<Header>& headers) {
    HttpResponse head;
    head.headers = headers;
    return head.FindHeader("Content-Type").has_value() && IsHtmlResponse(head);
}

// How config authenticates, in NewAuthenticator's order (never the credential itself).
std::string_view AuthenticationKind(const Config& config) {
    if (!config.bearer_token_file.empty())
        return "token file";
    if (!config.bearer_token.empty())
        return "bearer token";
    if (!config.username.empty() || !config.password.empty())
        return "basic";
    if (config.exec)
        return "exec plugin";
    if (!config.tls.client_cert_pem.empty())
        return "client certificate";
    return "none";
}

}  // namespace

std::string DefaultUserAgent() {
    return std::string("ctrl/") + CTRL_VERSION + " (linux/amd64)";
}

StatusOr<std::unique_ptr<Transport>> NewTransport(const Config& config, boost::asio::any_io_executor executor) {
    if (config.host.empty())
        return BadRequestError("the config has no server (host) to talk to");
    TransportOptions options;
    options.server = config.host;
    options.tls = config.tls;
    options.user_agent = config.user_agent.empty() ? DefaultUserAgent() : config.user_agent;
    std::unique_ptr<Transport> transport;
    switch (config.transport) {
        case TransportKind::kBeast: {
            CTRL_ASSIGN_OR_RETURN(transport, NewBeastTransport(std::move(executor), std::move(options)));
            break;
        }
        case TransportKind::kCppRest: {
            CTRL_ASSIGN_OR_RETURN(transport, NewCppRestTransport(std::move(executor), std::move(options)));
            break;
        }
    }
    if (transport == nullptr)
        return InternalError("unknown transport kind");
    if (!config.wrap_transport)
        return transport;
    transport = config.wrap_transport(std::move(transport));
    if (transport == nullptr)
        return BadRequestError("the config's wrap_transport returned no transport");
    return transport;
}

StatusOr<std::unique_ptr<RestClient>> RestClient::New(const Config& config, boost::asio::any_io_executor executor,
                                                      metrics::Registry& registry) {
    CTRL_ASSIGN_OR_RETURN(std::unique_ptr<Transport> transport, NewTransport(config, std::move(executor)));
    CTRL_ASSIGN_OR_RETURN(std::shared_ptr<Authenticator> authenticator, NewAuthenticator(config));
    log::Logger().WithName("rest").V(1).Info("client for the API server", "host", internal::LoggedUrl(config.host, ""),
                                             "transport",
                                             config.transport == TransportKind::kBeast ? "beast" : "cpprest", "auth",
                                             AuthenticationKind(config), "qps", config.qps, "burst", config.burst);
    return std::make_unique<RestClient>(config, std::move(transport), std::move(authenticator), registry);
}

RestClient::RestClient(Config config, std::unique_ptr<Transport> transport,
                       std::shared_ptr<Authenticator> authenticator, metrics::Registry& registry)
    : config_(std::move(config)),
      host_label_(HostLabel(config_.host)),
      transport_(std::move(transport)),
      authenticator_(std::move(authenticator)),
      rate_limiter_(config_.qps, config_.burst),
      metrics_(registry) {}

void RestClient::Observe(const std::string& method, const std::string& code, Clock::duration took) {
    metrics_.requests_total.WithLabelValues({code, method, host_label_}).Inc();
    metrics_.request_duration_seconds.WithLabelValues({method, host_label_})
        .Observe(std::chrono::duration<double>(took).count());
}

Task<StatusOr<HttpRequest>> RestClient::Prepare(Context& ctx, const HttpRequest& request) {
    if (rate_limiter_.Enabled()) {
        StatusOr<Clock::duration> waited = co_await rate_limiter_.Wait(ctx);
        if (!waited.Ok())
            co_return waited.GetStatus().Annotate("waiting for the client-side rate limiter");
        metrics_.rate_limiter_duration_seconds.WithLabelValues({request.method, host_label_})
            .Observe(std::chrono::duration<double>(*waited).count());
        if (*waited > kLongThrottle) {
            internal::RequestLogger(ctx).V(1).Info("waited for the client-side rate limiter", "verb", request.method,
                                                   "url", internal::LoggedUrl(config_.host, request.target), "waited",
                                                   *waited);
        }
    }
    HttpRequest prepared = request;
    if (prepared.timeout.count() == 0)
        prepared.timeout = config_.timeout;
    if (!prepared.FindHeader("Accept"))
        prepared.SetHeader("Accept", "application/json");
    if (authenticator_) {
        Status authorized = co_await authenticator_->Authorize(ctx, prepared);
        if (!authorized.Ok())
            co_return authorized.Annotate("authenticating to " + config_.host);
    }
    internal::LogRequestHeaders(ctx, config_.host, prepared);
    co_return prepared;
}

Task<bool> RestClient::ShouldRetry(Context& ctx, int http_status, std::optional<std::string_view> retry_after,
                                   int attempt, bool& reauthenticated, const HttpRequest& request, Status& stop) {
    const std::string& method = request.method;
    if (http_status == 401 && !reauthenticated && authenticator_) {
        // Exec plugins and token files may have a fresh credential; a static one fails again.
        internal::RequestLogger(ctx).V(1).Info("unauthorized: dropping cached credentials and retrying once", "verb",
                                               method, "url", internal::LoggedUrl(config_.host, request.target));
        reauthenticated = true;
        authenticator_->OnUnauthorized();
        co_return true;
    }
    if (http_status != 429 && http_status < 500)
        co_return false;
    const std::optional<std::chrono::seconds> delay = ParseSeconds(retry_after);
    if (!delay || attempt >= max_retries_)
        co_return false;
    metrics_.request_retries_total.WithLabelValues({std::to_string(http_status), method, host_label_}).Inc();
    internal::RequestLogger(ctx).V(1).Info("retrying after Retry-After", "verb", method, "url",
                                           internal::LoggedUrl(config_.host, request.target), "code", http_status,
                                           "attempt", attempt + 1, "wait", *delay);
    if (Status slept = co_await SleepFor(ctx, *delay); !slept.Ok()) {
        stop = slept.Annotate("waiting " + std::to_string(delay->count()) + "s to retry after HTTP " +
                              std::to_string(http_status));
        co_return false;
    }
    co_return true;
}

Task<StatusOr<HttpResponse>> RestClient::Do(Context ctx, HttpRequest request) {
    // Errors name the request without credentials in the URL: they end up in log lines.
    const std::string what = request.method + " " + internal::LoggedUrl(config_.host, request.target);
    bool reauthenticated = false;
    for (int attempt = 0;; ++attempt) {
        CTRL_CO_ASSIGN_OR_RETURN(HttpRequest prepared, co_await Prepare(ctx, request));
        const Clock::time_point start = Clock::now();
        StatusOr<HttpResponse> response = co_await transport_->Send(ctx, std::move(prepared));
        const Clock::duration took = Clock::now() - start;
        Observe(request.method, response.Ok() ? std::to_string(response->status) : kErrorCodeLabel, took);
        internal::LogResponse(ctx, config_.host, request, response.Ok() ? response->status : 0, response.GetStatus(),
                              took);
        if (!response.Ok())
            co_return response.GetStatus();
        Status stop;
        if (co_await ShouldRetry(ctx, response->status, response->FindHeader("Retry-After"), attempt, reauthenticated,
                                 request, stop)) {
            continue;
        }
        if (!stop.Ok())
            co_return stop;
        if (Status status =
                WantsJson(request) ? StatusFromJsonResponse(*response, what) : StatusFromResponse(*response, what);
            !status.Ok())
            co_return status;
        co_return std::move(response);
    }
}

Task<StatusOr<std::unique_ptr<BodyStream>>> RestClient::Stream(Context ctx, HttpRequest request) {
    const std::string what = request.method + " " + internal::LoggedUrl(config_.host, request.target);
    bool reauthenticated = false;
    for (int attempt = 0;; ++attempt) {
        CTRL_CO_ASSIGN_OR_RETURN(HttpRequest prepared, co_await Prepare(ctx, request));
        prepared.timeout = request.timeout;  // a stream lives past the per-request timeout
        const Clock::time_point start = Clock::now();
        StatusOr<std::unique_ptr<BodyStream>> stream = co_await transport_->Open(ctx, std::move(prepared));
        const Clock::duration took = Clock::now() - start;
        Observe(request.method, stream.Ok() ? std::to_string((*stream)->StatusCode()) : kErrorCodeLabel, took);
        internal::LogResponse(ctx, config_.host, request, stream.Ok() ? (*stream)->StatusCode() : 0, stream.GetStatus(),
                              took);
        if (!stream.Ok())
            co_return stream.GetStatus();
        BodyStream& body = **stream;
        const bool success = body.StatusCode() >= 200 && body.StatusCode() < 300;
        if (success && !(WantsJson(request) && IsHtmlContentType(body.Headers())))
            co_return std::move(stream);

        // Named first: GCC 12 destroys an aggregate built inside a co_await expression twice.
        std::string error_body = co_await ReadErrorBody(ctx, body);
        HttpResponse response;
        response.status = body.StatusCode();
        response.headers = body.Headers();
        response.body = std::move(error_body);
        body.Close();
        Status stop;
        if (co_await ShouldRetry(ctx, response.status, response.FindHeader("Retry-After"), attempt, reauthenticated,
                                 request, stop)) {
            continue;
        }
        if (!stop.Ok())
            co_return stop;
        co_return StatusFromJsonResponse(response, what);
    }
}

Task<StatusOr<std::unique_ptr<WatchStream>>> RestClient::Watch(Context ctx, HttpRequest request) {
    return Watch(std::move(ctx), std::move(request), WatchStreamOptions{});
}

Task<StatusOr<std::unique_ptr<WatchStream>>> RestClient::Watch(Context ctx, HttpRequest request,
                                                               WatchStreamOptions options) {
    const std::string url = internal::LoggedUrl(config_.host, request.target);
    CTRL_CO_ASSIGN_OR_RETURN(std::unique_ptr<BodyStream> body, co_await Stream(ctx, std::move(request)));
    internal::RequestLogger(ctx).V(4).Info("watch opened", "url", url);
    co_return std::make_unique<WatchStream>(std::move(body), std::move(options));
}

}  // namespace ctrl::rest
