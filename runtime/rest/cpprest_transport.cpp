#include "ctrl/rest/cpprest_transport.hpp"

#include <algorithm>
#include <cctype>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <cpprest/containerstream.h>
#include <cpprest/http_client.h>
#include <boost/algorithm/string/predicate.hpp>

#include "ctrl/core/notification.hpp"
#include "ctrl/rest/internal/cpprest_body_queue.hpp"
#include "ctrl/rest/internal/cpprest_body_sink.hpp"
#include "ctrl/rest/internal/cpprest_body_stream.hpp"
#include "ctrl/rest/internal/cpprest_deadline.hpp"
#include "ctrl/rest/internal/cpprest_errors.hpp"
#include "ctrl/rest/internal/cpprest_tls.hpp"

#ifndef CTRL_VERSION
#define CTRL_VERSION "unknown"  // the build passes the project's version
#endif

namespace ctrl::rest {
namespace {

using internal::cpprest::BodyQueue;
using internal::cpprest::CppRestBodyStream;
using internal::cpprest::CppRestTls;
using internal::cpprest::Deadline;
using internal::cpprest::ErrorScene;
using internal::cpprest::NewBodySink;
using internal::cpprest::RequestDeadline;
using internal::cpprest::StatusFromException;

// How much of a watch body may wait unread before cpprestsdk is held back.
constexpr std::size_t kStreamQueueLimit = std::size_t{1} << 20;
// cpprestsdk's timer cannot be off: "no idle timeout" is this long.
constexpr std::chrono::hours kNoIdleTimeout{24 * 365};

// The outcome of a pplx task, filled in on cpprestsdk's thread pool; done once it is.
template <typename T>
struct Outcome {
    std::mutex mu;
    std::optional<T> value;
    std::exception_ptr error;
    Notification done;
};

// Fills outcome in when task ends. The task's outcome is always observed, also after the wait
// ended early: pplx raises SIGTRAP for an exception that nobody observed.
template <typename T>
void Observe(pplx::task<T> task, std::shared_ptr<Outcome<T>> outcome) {
    task.then([outcome](pplx::task<T> done) {
        {
            std::lock_guard lock(outcome->mu);
            try {
                outcome->value.emplace(done.get());
            } catch (...) {
                outcome->error = std::current_exception();
            }
        }
        outcome->done.Notify();
    });
}

// Waits for outcome until ctx ends or the deadline passes.
template <typename T>
Task<Status> AwaitOutcome(const Context& ctx, const Outcome<T>& outcome, const Deadline& deadline) {
    const Context wait_ctx = deadline.at ? Context::WithDeadline(ctx, *deadline.at) : ctx;
    co_return co_await outcome.done.Wait(wait_ctx);
}

// The Status for a wait that ended before the exchange did.
Status Abandoned(const Context& ctx, const Deadline& deadline, const std::string& operation) {
    if (ctx.Cancelled())
        return ctx.Err().Annotate(operation);
    return TimeoutError(operation + ": " + deadline.what + " exceeded");
}

// An HTTP method is a token (RFC 9110): cpprestsdk would fail it later with a vaguer message.
bool IsToken(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
    });
}

std::vector<Header> HeadersOf(const web::http::http_response& response) {
    std::vector<Header> headers;
    for (const auto& [name, value] : response.headers())
        headers.push_back({name, value});
    return headers;
}

// Sends requests with one cpprestsdk http_client, whose connection pool it shares.
class CppRestTransport final : public Transport {
  public:
    CppRestTransport(TransportOptions options, std::string server, const web::http::client::http_client& client,
                     std::shared_ptr<CppRestTls> tls)
        : options_(std::move(options)), server_(std::move(server)), client_(client), tls_(std::move(tls)) {
        if (options_.user_agent.empty())
            options_.user_agent = "ctrl/" CTRL_VERSION;
    }

    Task<StatusOr<HttpResponse>> Send(Context ctx, HttpRequest request) override;
    Task<StatusOr<std::unique_ptr<BodyStream>>> Open(Context ctx, HttpRequest request) override;

  private:
    ErrorScene Scene(const HttpRequest& request) const {
        return ErrorScene{.operation = request.method + " " + server_ + request.target,
                          .server = server_,
                          .idle_timeout = options_.idle_timeout,
                          .tls = tls_,
                          .tls_failures_before = tls_ ? tls_->Failures() : 0};
    }
    StatusOr<web::http::http_request> Build(const HttpRequest& request, std::shared_ptr<BodyQueue> queue,
                                            const ErrorScene& scene) const;

    TransportOptions options_;
    std::string server_;
    web::http::client::http_client client_;
    std::shared_ptr<CppRestTls> tls_;
};

StatusOr<web::http::http_request> CppRestTransport::Build(const HttpRequest& request, std::shared_ptr<BodyQueue> queue,
                                                          const ErrorScene& scene) const {
    if (!IsToken(request.method))
        return BadRequestError(scene.operation + ": invalid HTTP method \"" + request.method + "\"");
    try {
        web::http::http_request message(request.method);
        message.set_request_uri(web::uri(request.target.empty() ? "/" : request.target));
        const std::optional<std::string_view> content_type = request.FindHeader("Content-Type");
        if (!request.body.empty()) {
            // A buffer of bytes, not set_body(std::string): that one reads a streambuf<char> as a
            // streambuf<unsigned char> (undefined behaviour, which UBSan reports).
            std::vector<unsigned char> bytes(request.body.begin(), request.body.end());
            message.set_body(concurrency::streams::bytestream::open_istream(std::move(bytes)), request.body.size(),
                             std::string(content_type.value_or("application/octet-stream")));
        }
        for (const Header& header : request.headers) {
            if (boost::iequals(header.name, "Content-Length"))
                continue;  // cpprestsdk sets it
            if (boost::iequals(header.name, "Content-Type") && !request.body.empty())
                continue;  // set with the body
            message.headers().add(header.name, header.value);
        }
        if (!request.FindHeader("User-Agent"))
            message.headers().add("User-Agent", options_.user_agent);
        message.set_response_stream(NewBodySink(std::move(queue)));
        return message;
    } catch (...) {
        return StatusFromException(std::current_exception(), scene);
    }
}

Task<StatusOr<HttpResponse>> CppRestTransport::Send(Context ctx, HttpRequest request) {
    const ErrorScene scene = Scene(request);
    if (Status err = ctx.Err(); !err.Ok())
        co_return err.Annotate(scene.operation);
    auto queue = std::make_shared<BodyQueue>(BodyQueue::kUnbounded);
    CTRL_CO_ASSIGN_OR_RETURN(web::http::http_request message, Build(request, queue, scene));
    const Deadline deadline = RequestDeadline(ctx, request.timeout);
    auto cts = std::make_shared<pplx::cancellation_token_source>();
    auto outcome = std::make_shared<Outcome<web::http::http_response>>();
    pplx::task<web::http::http_response> done;
    try {
        done = client_.request(message, cts->get_token()).then([](web::http::http_response response) {
            return response.content_ready();
        });
    } catch (...) {
        co_return StatusFromException(std::current_exception(), scene);
    }
    Observe(done, outcome);
    if (Status waited = co_await AwaitOutcome(ctx, *outcome, deadline); !waited.Ok()) {
        cts->cancel();
        co_return Abandoned(ctx, deadline, scene.operation);
    }
    std::lock_guard lock(outcome->mu);
    if (outcome->error)
        co_return StatusFromException(outcome->error, scene);
    HttpResponse response;
    response.status = outcome->value->status_code();
    response.headers = HeadersOf(*outcome->value);
    response.body = queue->TakeAll();
    co_return response;
}

Task<StatusOr<std::unique_ptr<BodyStream>>> CppRestTransport::Open(Context ctx, HttpRequest request) {
    const ErrorScene scene = Scene(request);
    if (Status err = ctx.Err(); !err.Ok())
        co_return err.Annotate(scene.operation);
    auto queue = std::make_shared<BodyQueue>(kStreamQueueLimit);
    CTRL_CO_ASSIGN_OR_RETURN(web::http::http_request message, Build(request, queue, scene));
    const Deadline deadline = RequestDeadline(ctx, request.timeout);
    auto cts = std::make_shared<pplx::cancellation_token_source>();
    auto outcome = std::make_shared<Outcome<web::http::http_response>>();
    pplx::task<web::http::http_response> headers;
    try {
        headers = client_.request(message, cts->get_token());
    } catch (...) {
        co_return StatusFromException(std::current_exception(), scene);
    }
    Observe(headers, outcome);
    if (Status waited = co_await AwaitOutcome(ctx, *outcome, deadline); !waited.Ok()) {
        cts->cancel();
        co_return Abandoned(ctx, deadline, scene.operation);
    }
    std::optional<web::http::http_response> response;
    {
        std::lock_guard lock(outcome->mu);
        if (outcome->error)
            co_return StatusFromException(outcome->error, scene);
        response = std::move(outcome->value);
    }
    // The end of the body, clean or not, reaches the queue; the exception is always observed.
    response->content_ready().then([queue, scene](pplx::task<web::http::http_response> body) {
        try {
            body.get();
            queue->Finish(OkStatus());
        } catch (...) {
            queue->Finish(StatusFromException(std::current_exception(), scene));
        }
    });
    std::unique_ptr<BodyStream> stream = std::make_unique<CppRestBodyStream>(
        response->status_code(), HeadersOf(*response), queue, [cts] { cts->cancel(); }, scene.operation);
    co_return stream;
}

}  // namespace

StatusOr<std::unique_ptr<Transport>> NewCppRestTransport(boost::asio::any_io_executor executor,
                                                         TransportOptions options) {
    if (!executor)
        return BadRequestError("cpprest transport: no executor given");
    InitializeCppRestThreads(kDefaultCppRestThreads);
    std::string server = options.server;
    while (!server.empty() && server.back() == '/')
        server.pop_back();
    try {
        const web::uri uri(server);
        if (uri.scheme() != "http" && uri.scheme() != "https")
            return BadRequestError("server URL \"" + options.server + "\": the scheme must be http or https");
        if (uri.host().empty())
            return BadRequestError("server URL \"" + options.server + "\": no host");
        std::shared_ptr<CppRestTls> tls;
        if (uri.scheme() == "https") {
            std::string host = uri.host();
            if (host.size() > 2 && host.front() == '[' && host.back() == ']')
                host = host.substr(1, host.size() - 2);
            CTRL_ASSIGN_OR_RETURN(tls, CppRestTls::Create(options.tls, host));
        }
        web::http::client::http_client_config config;
        config.set_timeout(options.idle_timeout > std::chrono::milliseconds::zero()
                               ? std::chrono::duration_cast<std::chrono::microseconds>(options.idle_timeout)
                               : std::chrono::duration_cast<std::chrono::microseconds>(kNoIdleTimeout));
        config.set_max_redirects(0);
        config.set_validate_certificates(!options.tls.insecure_skip_verify);
        config.set_tlsext_sni_enabled(false);  // CppRestTls sends SNI (tls.server_name, else the host)
        if (tls) {
            config.set_ssl_context_callback([tls](boost::asio::ssl::context& context) { tls->Configure(context); });
        }
        web::http::client::http_client client(uri, config);
        return std::unique_ptr<Transport>(std::make_unique<CppRestTransport>(std::move(options), std::move(server),
                                                                             std::move(client), std::move(tls)));
    } catch (const std::exception& e) {
        return BadRequestError("server URL \"" + options.server + "\": " + e.what());
    }
}

}  // namespace ctrl::rest
