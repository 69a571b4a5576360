#include "ctrl/rest/authenticator.hpp"

#include <sys/stat.h>

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "ctrl/core/base64.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/rest/internal/kubeconfig_env.hpp"

namespace ctrl::rest {
namespace {

constexpr std::string_view kAuthorization = "Authorization";
// A token file is re-read at least this often even when it looks unchanged (client-go re-reads
// every minute; a rewrite can keep the size and a coarse mtime).
constexpr std::chrono::seconds kTokenFileMaxAge{60};

bool HasAuthorization(const HttpRequest& request) {
    return request.FindHeader(kAuthorization).has_value();
}

// Sends requests as they are.
class NoAuthenticator final : public Authenticator {
  public:
    Task<Status> Authorize(Context /*ctx*/, HttpRequest& /*request*/) override { co_return OkStatus(); }
    void OnUnauthorized() override {}
};

// Sets one fixed Authorization value (a bearer token or basic credentials).
class StaticAuthenticator final : public Authenticator {
  public:
    explicit StaticAuthenticator(std::string value) : value_(std::move(value)) {}
    Task<Status> Authorize(Context /*ctx*/, HttpRequest& request) override {
        if (!HasAuthorization(request))
            request.SetHeader(std::string(kAuthorization), value_);
        co_return OkStatus();
    }
    void OnUnauthorized() override {}

  private:
    const std::string value_;
};

// What identifies one version of a file's contents without reading it.
struct FileStamp {
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    timespec mtime{};

    bool operator==(const FileStamp& other) const {
        return device == other.device && inode == other.inode && size == other.size &&
               mtime.tv_sec == other.mtime.tv_sec && mtime.tv_nsec == other.mtime.tv_nsec;
    }
};

std::optional<FileStamp> StampOf(const std::string& path) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0)
        return std::nullopt;
    return FileStamp{info.st_dev, info.st_ino, info.st_size, info.st_mtim};
}

// A bearer token read from a file that may be rewritten at any time (a projected service-account
// token, a token refreshed by a sidecar). The check is one stat() per request: a local file, never
// a network round trip.
class TokenFileAuthenticator final : public Authenticator {
  public:
    TokenFileAuthenticator(std::string path, std::string initial_token)
        : path_(std::move(path)), token_(std::move(initial_token)) {}

    Task<Status> Authorize(Context /*ctx*/, HttpRequest& request) override {
        if (HasAuthorization(request))
            co_return OkStatus();
        auto token = Token();
        if (!token.Ok())
            co_return token.GetStatus();
        request.SetHeader(std::string(kAuthorization), "Bearer " + *token);
        co_return OkStatus();
    }

    void OnUnauthorized() override {
        std::lock_guard lock(mu_);
        force_read_ = true;
    }

  private:
    StatusOr<std::string> Token() {
        std::lock_guard lock(mu_);
        const auto now = std::chrono::steady_clock::now();
        const std::optional<FileStamp> stamp = StampOf(path_);
        const bool changed = !stamp_ || !stamp || !(*stamp == *stamp_);
        if (changed || force_read_ || now - read_at_ >= kTokenFileMaxAge) {
            Status read = ReadLocked(stamp, now);
            const log::Logger logger = log::Logger().WithName("rest");
            if (read.Ok()) {
                logger.V(2).Info("read the bearer token file", "path", path_);
            } else {
                logger.V(1).Info("cannot read the bearer token file", "path", path_, "err", read, "keepingPrevious",
                                 !token_.empty());
            }
            if (!read.Ok() && token_.empty())
                return read;
        }
        return token_;
    }

    // Keeps the previous token when the file cannot be read or is empty (client-go does the same).
    Status ReadLocked(const std::optional<FileStamp>& stamp, std::chrono::steady_clock::time_point now) {
        auto contents = internal::ReadWholeFile(path_);
        if (!contents.Ok())
            return UnauthorizedError("bearer token file " + contents.GetStatus().Message());
        std::string token(internal::TrimSpace(*contents));
        if (token.empty())
            return UnauthorizedError("bearer token file " + path_ + " is empty");
        token_ = std::move(token);
        stamp_ = stamp;
        read_at_ = now;
        force_read_ = false;
        return OkStatus();
    }

    const std::string path_;
    std::mutex mu_;
    std::string token_;  // guarded by mu_
    std::optional<FileStamp> stamp_;
    std::chrono::steady_clock::time_point read_at_{};
    bool force_read_ = false;
};

// Bearer tokens from an exec credential plugin.
class ExecAuthenticator final : public Authenticator {
  public:
    explicit ExecAuthenticator(std::shared_ptr<ExecCredentialProvider> provider) : provider_(std::move(provider)) {}

    Task<Status> Authorize(Context ctx, HttpRequest& request) override {
        if (HasAuthorization(request))
            co_return OkStatus();
        auto credential = co_await provider_->Get(std::move(ctx));
        if (!credential.Ok())
            co_return credential.GetStatus();
        if (credential->token.empty())
            co_return UnauthorizedError(
                "exec plugin returned a client certificate but no token: certificate-returning plugins are not "
                "supported (the transport's TLS identity is fixed when it is created)");
        request.SetHeader(std::string(kAuthorization), "Bearer " + credential->token);
        co_return OkStatus();
    }

    void OnUnauthorized() override { provider_->Invalidate(); }

  private:
    std::shared_ptr<ExecCredentialProvider> provider_;
};

}  // namespace

StatusOr<std::shared_ptr<Authenticator>> NewAuthenticator(const Config& config) {
    if (!config.bearer_token_file.empty())
        return std::shared_ptr<Authenticator>(
            std::make_shared<TokenFileAuthenticator>(config.bearer_token_file, config.bearer_token));
    if (!config.bearer_token.empty())
        return std::shared_ptr<Authenticator>(std::make_shared<StaticAuthenticator>("Bearer " + config.bearer_token));
    if (!config.username.empty() || !config.password.empty())
        return std::shared_ptr<Authenticator>(
            std::make_shared<StaticAuthenticator>("Basic " + Base64Encode(config.username + ":" + config.password)));
    if (config.exec) {
        CTRL_ASSIGN_OR_RETURN(std::shared_ptr<ExecCredentialProvider> provider, ExecCredentialProvider::New(config));
        return NewExecAuthenticator(std::move(provider));
    }
    return std::shared_ptr<Authenticator>(std::make_shared<NoAuthenticator>());
}

std::shared_ptr<Authenticator> NewExecAuthenticator(std::shared_ptr<ExecCredentialProvider> provider) {
    return std::make_shared<ExecAuthenticator>(std::move(provider));
}

}  // namespace ctrl::rest
