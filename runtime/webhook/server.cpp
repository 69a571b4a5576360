#include "ctrl/webhook/server.hpp"

// Boost 1.74's awaitable.hpp needs <utility> first: task.hpp includes it in that order.
#include "ctrl/core/task.hpp"

#include <chrono>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <filesystem>
#include <utility>

#include "ctrl/certwatcher/cert_watcher.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/webhook/admission/http.hpp"
#include "ctrl/webhook/conversion/http.hpp"

namespace ctrl::webhook {
namespace {

// controller-runtime's buckets: 10 ns to 10^3 s, by ten.
std::vector<double> LatencyBuckets() {
    std::vector<double> buckets;
    double bound = 10e-9;
    for (int i = 0; i < 12; ++i, bound *= 10)
        buckets.push_back(bound);
    return buckets;
}

std::string DefaultCertDir() {
    std::error_code ignored;
    std::filesystem::path temp = std::filesystem::temp_directory_path(ignored);
    if (temp.empty())
        temp = "/tmp";
    return (temp / "k8s-webhook-server" / "serving-certs").string();
}

}  // namespace

struct Server::Metrics {
    explicit Metrics(metrics::Registry& registry)
        : requests(registry.AddCounter("controller_runtime_webhook_requests_total",
                                       "Total number of admission requests by HTTP status code.", {"webhook", "code"})),
          latency(registry.AddHistogram("controller_runtime_webhook_latency_seconds",
                                        "Histogram of the latency of processing admission requests", {"webhook"},
                                        LatencyBuckets())),
          in_flight(registry.AddGauge("controller_runtime_webhook_requests_in_flight",
                                      "Current number of admission requests being served.", {"webhook"})) {}
    metrics::CounterFamily requests;
    metrics::HistogramFamily latency;
    metrics::GaugeFamily in_flight;
};

Server::Server(boost::asio::any_io_executor executor, ServerOptions options)
    : executor_(std::move(executor)),
      options_(std::move(options)),
      metrics_(std::make_shared<Metrics>(options_.registry ? *options_.registry : metrics::DefaultRegistry())) {}

Server::~Server() = default;

StatusOr<std::unique_ptr<Server>> Server::New(boost::asio::any_io_executor executor, ServerOptions options) {
    if (!executor)
        return BadRequestError("webhook server: no executor");
    if (options.port < -1 || options.port > 65535)
        return BadRequestError("webhook server: port " + std::to_string(options.port) +
                               " is not -1 (disabled), 0 (a free port) or 1-65535");
    if (options.cert_dir.empty())
        options.cert_dir = DefaultCertDir();
    if (!options.certificates && (options.cert_name.empty() || options.key_name.empty()))
        return BadRequestError("webhook server: cert_name and key_name must not be empty");
    return std::unique_ptr<Server>(new Server(std::move(executor), std::move(options)));
}

namespace {

// One registered path: its handler and its series, resolved once at registration rather than
// looked up by label on every request.
struct InstrumentedRoute {
    server::HttpHandler handler;
    metrics::CounterFamily requests;
    metrics::Counter answered_200;
    metrics::Gauge in_flight;
    metrics::Histogram latency;
    std::string path;
};

Task<server::ServerResponse> ServeInstrumented(std::shared_ptr<InstrumentedRoute> route,
                                               const server::ServerRequest& request) {
    // Counted out however the handler ends (a raw handler may throw: the server answers 500).
    struct InFlight {
        metrics::Gauge& gauge;
        explicit InFlight(metrics::Gauge& g) : gauge(g) { gauge.Inc(); }
        ~InFlight() { gauge.Dec(); }
    } in_flight(route->in_flight);
    const auto started = std::chrono::steady_clock::now();
    server::ServerResponse response = co_await route->handler(request);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    route->latency.Observe(took.count());
    if (response.status == 200)
        route->answered_200.Inc();
    else
        route->requests.WithLabelValues({route->path, std::to_string(response.status)}).Inc();
    co_return response;
}

}  // namespace

server::HttpHandler Server::Instrumented(const std::string& path, server::HttpHandler handler) const {
    // controller-runtime initializes the likeliest codes.
    metrics_->requests.WithLabelValues({path, "500"});
    auto route = std::make_shared<InstrumentedRoute>(InstrumentedRoute{
        std::move(handler), metrics_->requests, metrics_->requests.WithLabelValues({path, "200"}),
        metrics_->in_flight.WithLabelValues({path}), metrics_->latency.WithLabelValues({path}), path});
    return [route](const server::ServerRequest& request) { return ServeInstrumented(route, request); };
}

Status Server::Register(const std::string& path, server::HttpHandler handler) {
    if (path.empty() || path.front() != '/')
        return BadRequestError("webhook server: path \"" + path + "\" does not start with /");
    server::HttpHandler instrumented = Instrumented(path, std::move(handler));
    std::lock_guard lock(mu_);
    if (!routes_.emplace(path, instrumented).second)
        return AlreadyExistsError("webhook server: path " + path + " is already registered");
    if (http_)
        http_->HandlePost(path, instrumented);
    log::Logger().WithName("webhook").Info(Disabled() ? "webhook is disabled" : "Registering webhook", "path", path);
    return OkStatus();
}

Status Server::RegisterAdmission(const std::string& path, admission::Handler handler) {
    return Register(path, admission::Serve(std::move(handler)));
}

Status Server::RegisterConversion(conversion::Converter converter) {
    std::call_once(conversion_path_once_, [this] {
        conversion_path_ = Register(std::string(conversion::kPath), conversion::Serve(conversions_));
    });
    CTRL_RETURN_IF_ERROR(conversion_path_);
    const GroupKind kind = converter.Kind();
    CTRL_RETURN_IF_ERROR(conversions_->Register(std::move(converter)));
    log::Logger().WithName("webhook").Info("Conversion webhook enabled", "kind", kind.String());
    return OkStatus();
}

bool Server::Registered(const std::string& path) const {
    std::lock_guard lock(mu_);
    return routes_.contains(path);
}

server::Checker Server::StartedChecker() const {
    return [this]() -> Status {
        if (Disabled())
            return OkStatus();
        if (Port() == 0)
            return UnavailableError("webhook server has not been started yet");
        return OkStatus();
    };
}

std::string Server::Url() const {
    if (Port() == 0)
        return "";
    const std::string host = options_.host.empty() || options_.host == "0.0.0.0" ? "127.0.0.1" : options_.host;
    return "https://" + host + ":" + std::to_string(Port());
}

Task<Status> Server::Run(Context ctx) {
    const log::Logger logger = log::Logger().WithName("webhook");
    if (Disabled()) {
        logger.Info("Webhook server is disabled");
        co_return OkStatus();
    }
    std::shared_ptr<const server::CertificateSource> certificates = options_.certificates;
    std::shared_ptr<certwatcher::CertWatcher> watcher;
    if (!certificates) {
        const std::string dir = options_.cert_dir;
        StatusOr<std::shared_ptr<certwatcher::CertWatcher>> made =
            certwatcher::CertWatcher::New(dir + "/" + options_.cert_name, dir + "/" + options_.key_name,
                                          options_.registry ? options_.registry : &metrics::DefaultRegistry());
        if (!made.Ok())
            co_return UnavailableError("webhook server: " + made.GetStatus().Message());
        watcher = *made;
        certificates = watcher;
    }
    if (Status has = co_await certificates->WaitForCertificate(ctx); !has.Ok())
        co_return ctx.Err().Ok() ? has : OkStatus();
    server::HttpServerOptions http_options;
    http_options.bind_address = options_.host + ":" + std::to_string(options_.port);
    http_options.name = "webhook";
    http_options.serve_tls = true;
    http_options.max_body_bytes = options_.max_body_bytes;
    http_options.certificates = certificates;
    StatusOr<std::unique_ptr<server::HttpServer>> http = server::HttpServer::New(executor_, std::move(http_options));
    if (!http.Ok())
        co_return http.GetStatus();
    std::shared_ptr<server::HttpServer> serving = std::move(*http);
    {
        std::lock_guard lock(mu_);
        for (const auto& [path, handler] : routes_)
            serving->HandlePost(path, handler);
        http_ = serving;
    }
    port_.store(serving->BoundPort());
    logger.Info("Serving webhook server", "host", options_.host, "port", serving->BoundPort());
    Context stop_watching = Context::WithCancel(ctx);
    if (watcher) {
        auto watch = [](std::shared_ptr<certwatcher::CertWatcher> w, Context c) -> Task<void> {
            if (Status watched = co_await w->Run(c); !watched.Ok())
                log::Logger().WithName("webhook").Error(watched, "certificate watcher error");
        };
        boost::asio::co_spawn(executor_, watch(watcher, stop_watching), boost::asio::detached);
    }
    Status served = co_await serving->Run(ctx);
    stop_watching.Cancel();
    port_.store(0);
    co_return served;
}

}  // namespace ctrl::webhook
