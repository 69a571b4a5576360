#pragma once

#include <memory>
#include <string>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/authenticator.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/rest/rate_limiter.hpp"
#include "ctrl/rest/rest_metrics.hpp"
#include "ctrl/rest/transport.hpp"
#include "ctrl/rest/watch_stream.hpp"

namespace ctrl::rest {

// Sends requests to one API server as one user (client-go's RESTClient): authenticates each
// request, waits for the client-side rate limiter, retries 429 and 5xx answers that carry
// Retry-After (at most max_retries times, sleeping on a timer), re-authenticates once after a
// 401 (exec plugins and token files refresh), counts everything in rest_client_* metrics, and
// turns error answers into Status (rest/api_status.hpp). Safe to use from many coroutines.
class RestClient final {
  public:
    static constexpr int kDefaultMaxRetries = 10;

    // The transport the config names, on executor, with the config's authenticator.
    static StatusOr<std::unique_ptr<RestClient>> New(const Config& config, boost::asio::any_io_executor executor,
                                                     metrics::Registry& registry = metrics::DefaultRegistry());
    RestClient(Config config, std::unique_ptr<Transport> transport, std::shared_ptr<Authenticator> authenticator,
               metrics::Registry& registry);

    // Sends the request; a non-2xx answer is an error Status.
    Task<StatusOr<HttpResponse>> Do(Context ctx, HttpRequest request);
    // Sends the request and returns the body as a stream once a 2xx answer's headers arrive.
    Task<StatusOr<std::unique_ptr<BodyStream>>> Stream(Context ctx, HttpRequest request);
    // Stream() decoded as watch events.
    Task<StatusOr<std::unique_ptr<WatchStream>>> Watch(Context ctx, HttpRequest request);
    // The same, the stream read and decoded as options say.
    Task<StatusOr<std::unique_ptr<WatchStream>>> Watch(Context ctx, HttpRequest request, WatchStreamOptions options);

    const Config& GetConfig() const { return config_; }
    void SetMaxRetries(int max_retries) { max_retries_ = max_retries; }

  private:
    Task<StatusOr<HttpRequest>> Prepare(Context& ctx, const HttpRequest& request);
    // Whether to try again after this answer; sleeps for Retry-After first. Sets `stop` to the
    // error that ends the loop (context ended while sleeping).
    Task<bool> ShouldRetry(Context& ctx, int http_status, std::optional<std::string_view> retry_after, int attempt,
                           bool& reauthenticated, const HttpRequest& request, Status& stop);
    void Observe(const std::string& method, const std::string& code, std::chrono::steady_clock::duration took);

    const Config config_;
    const std::string host_label_;
    std::unique_ptr<Transport> transport_;
    std::shared_ptr<Authenticator> authenticator_;
    RateLimiter rate_limiter_;
    RestMetrics metrics_;
    int max_retries_ = kDefaultMaxRetries;
};

// The transport config.transport names, for config.host with config.tls.
StatusOr<std::unique_ptr<Transport>> NewTransport(const Config& config, boost::asio::any_io_executor executor);

// "ctrl/<version> (linux/amd64)".
std::string DefaultUserAgent();

}  // namespace ctrl::rest
