#include "ctrl/certwatcher/cert_watcher.hpp"

// Boost 1.74's awaitable.hpp needs <utility> first: task.hpp includes it in that order.
#include "ctrl/core/task.hpp"

#include <sys/inotify.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <set>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "ctrl/core/internal/read_file.hpp"
#include "ctrl/core/sleep.hpp"

namespace ctrl::certwatcher {
namespace {

namespace net = boost::asio;

// After a change, more writes of the same rotation usually follow at once (the certificate, then
// the key): reading once they settle avoids loading a half-written pair.
constexpr std::chrono::milliseconds kSettle{50};

}  // namespace

struct CertWatcher::Metrics {
    explicit Metrics(metrics::Registry& registry)
        : reads(registry
                    .AddCounter("certwatcher_read_certificate_total",
                                "Total number of certificate reads (controller-runtime's name).", {})
                    .WithLabelValues({})),
          errors(registry
                     .AddCounter("certwatcher_read_certificate_errors_total",
                                 "Total number of certificate read errors (controller-runtime's name).", {})
                     .WithLabelValues({})) {}
    metrics::Counter reads;
    metrics::Counter errors;
};

CertWatcher::CertWatcher(std::string cert_file, std::string key_file, metrics::Registry* registry)
    : cert_file_(std::move(cert_file)),
      key_file_(std::move(key_file)),
      logger_(log::Logger().WithName("certwatcher").WithValues("cert", cert_file_, "key", key_file_)),
      metrics_(registry ? std::make_shared<Metrics>(*registry) : nullptr) {}

StatusOr<std::shared_ptr<CertWatcher>> CertWatcher::New(std::string cert_file, std::string key_file,
                                                        metrics::Registry* registry) {
    if (cert_file.empty() || key_file.empty())
        return BadRequestError("certwatcher: both a certificate file and a key file are needed");
    std::shared_ptr<CertWatcher> watcher(new CertWatcher(std::move(cert_file), std::move(key_file), registry));
    CTRL_RETURN_IF_ERROR(watcher->ReadCertificate());
    return watcher;
}

std::shared_ptr<const server::TlsIdentity> CertWatcher::Current() const {
    std::lock_guard lock(mu_);
    return current_;
}

Status CertWatcher::ReadCertificate() {
    if (metrics_)
        metrics_->reads.Inc();
    auto fail = [this](Status status) {
        if (metrics_)
            metrics_->errors.Inc();
        return status;
    };
    StatusOr<std::string> cert = ctrl::internal::ReadFile(cert_file_);
    if (!cert.Ok())
        return fail(BadRequestError("certwatcher: " + cert.GetStatus().Message()));
    StatusOr<std::string> key = ctrl::internal::ReadFile(key_file_);
    if (!key.Ok())
        return fail(BadRequestError("certwatcher: " + key.GetStatus().Message()));
    StatusOr<std::shared_ptr<const server::TlsIdentity>> identity =
        server::TlsIdentity::FromPem(*cert, *key, "certwatcher: " + cert_file_ + " and " + key_file_);
    if (!identity.Ok())
        return fail(identity.GetStatus());
    std::string old_serial;
    {
        std::lock_guard lock(mu_);
        if (current_ && current_->CertificatePem() == (*identity)->CertificatePem() &&
            current_->KeyPem() == (*identity)->KeyPem())
            return OkStatus();
        if (current_)
            old_serial = current_->SerialHex();
        current_ = *identity;
    }
    logger_.Info("Updated current TLS certificate", "serial", (*identity)->SerialHex(), "previousSerial", old_serial);
    return OkStatus();
}

Task<Status> CertWatcher::Run(Context ctx) {
    const int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0)
        co_return UnavailableError("certwatcher: inotify_init1 failed: " + std::string(strerror(errno)));
    auto strand = net::make_strand(co_await net::this_coro::executor);
    auto events = std::make_shared<net::posix::stream_descriptor>(strand, fd);
    std::set<std::string> dirs;
    for (const std::string& file : {cert_file_, key_file_})
        dirs.insert(std::filesystem::absolute(file).parent_path().string());
    constexpr uint32_t kMask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB |
                               IN_DELETE_SELF | IN_MOVE_SELF;
    for (const std::string& dir : dirs) {
        if (inotify_add_watch(fd, dir.c_str(), kMask) < 0)
            co_return UnavailableError("certwatcher: cannot watch " + dir + ": " + strerror(errno));
    }
    logger_.V(1).Info("watching the certificate's directories", "directories", dirs.size());
    const Context::CallbackId stop = ctx.OnCancel([events, strand](const Status&) {
        net::post(strand, [events] {
            boost::system::error_code ignored;
            events->close(ignored);
        });
    });
    std::array<char, 4096> buffer{};
    for (;;) {
        boost::system::error_code ec;
        auto read = [&]() -> Task<std::size_t> {
            co_return co_await events->async_read_some(net::buffer(buffer),
                                                       net::redirect_error(net::use_awaitable, ec));
        };
        co_await net::co_spawn(strand, read(), net::use_awaitable);
        if (ec || !ctx.Err().Ok())
            break;
        if (!(co_await SleepFor(ctx, kSettle)).Ok())
            break;
        if (Status read_status = ReadCertificate(); !read_status.Ok())
            logger_.Error(read_status, "error re-reading certificate");
    }
    ctx.RemoveCallback(stop);
    net::post(strand, [events] {
        boost::system::error_code ignored;
        events->close(ignored);
    });
    co_return OkStatus();
}

}  // namespace ctrl::certwatcher
