#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/rest/config.hpp"

namespace ctrl::rest {

inline constexpr std::string_view kExecApiV1 = "client.authentication.k8s.io/v1";
inline constexpr std::string_view kExecApiV1Beta1 = "client.authentication.k8s.io/v1beta1";

// What an exec credential plugin returned (ExecCredential.status).
struct ExecCredential {
    std::string token;                   // may be empty when a certificate pair is returned
    std::string client_certificate_pem;  // both or neither
    std::string client_key_pem;
    // nullopt: valid until the server rejects it (a 401 makes the caller Invalidate()).
    std::optional<std::chrono::system_clock::time_point> expiration;
};

// How ExecCredentialProvider runs the plugin; the defaults suit production.
struct ExecProviderOptions {
    // The plugin is killed when it runs longer. Default 60 s.
    std::chrono::milliseconds timeout{std::chrono::seconds(60)};
    // A credential is refreshed this long before its expirationTimestamp, but never earlier than
    // three quarters into its lifetime (so a short-lived credential is still reused). Default 10 s.
    std::chrono::seconds refresh_before_expiry{10};
    // Whether this process's stdin is a terminal (interactiveMode IfAvailable / Always). Default
    // nullopt: isatty(0). Tests fix it.
    std::optional<bool> stdin_is_terminal{};
    // The wall clock expirations are compared with. Default: system_clock::now. Tests move it.
    std::function<std::chrono::system_clock::time_point()> clock{};
};

// Checks what an exec stanza needs before it can run: a supported api_version (kExecApiV1 or
// kExecApiV1Beta1), a command, an interactive_mode of Never, IfAvailable or Always, and named env
// variables. BadRequest otherwise.
Status ValidateExecConfig(const ExecConfig& exec);

// Runs an exec credential plugin (client.authentication.k8s.io/v1 or v1beta1, as EKS's
// `aws eks get-token`) and caches its credential until it expires or Invalidate() is called.
//
// The plugin runs as a child process with this process's environment plus exec.env and
// KUBERNETES_EXEC_INFO (an ExecCredential with spec.interactive and, with provide_cluster_info,
// spec.cluster from the Config). Its pipes and exit are awaited asynchronously on the caller's
// executor, so the event loop never blocks on it; concurrent callers share one run; a run that
// outlives options.timeout is killed. Not interactive: stdin is /dev/null and stderr is captured for
// error messages. Interactive (IfAvailable with a terminal on stdin, or Always): the plugin shares
// this process's stdin and stderr.
//
// Errors: BadRequest for a configuration that cannot run (see ValidateExecConfig; interactiveMode
// Always without a terminal); Unauthorized when a run fails: command not found, non-zero exit,
// killed, timed out, output that is not an ExecCredential of the configured apiVersion, no status,
// neither token nor certificate pair. Their message names the command (never its args or env) and
// ends with the plugin's stderr (trimmed, at most 1 KiB) and its installHint:
// `exec plugin aws: exited with code 255; stderr: "Unable to locate credentials"; install hint: ...`.
// Failures are not cached: the next Get runs the plugin again. Thread-safe.
class ExecCredentialProvider final {
  public:
    // config.exec must be set; config's host and TLS settings are the cluster info given to the plugin.
    static StatusOr<std::shared_ptr<ExecCredentialProvider>> New(const Config& config,
                                                                 ExecProviderOptions options = {});

    ~ExecCredentialProvider();
    ExecCredentialProvider(const ExecCredentialProvider&) = delete;
    ExecCredentialProvider& operator=(const ExecCredentialProvider&) = delete;

    // The cached credential while it is fresh; otherwise runs the plugin (or joins the run under
    // way) and caches what it returns. Returns early with ctx's error when ctx is cancelled or
    // expires; the run itself goes on for the other callers and the cache.
    Task<StatusOr<ExecCredential>> Get(Context ctx);

    // Drops the cached credential: the next Get runs the plugin. Call it after a 401.
    void Invalidate();

    // How many times the plugin was started (for tests and metrics).
    int RunCount() const;

  private:
    struct Impl;
    explicit ExecCredentialProvider(std::shared_ptr<Impl> impl);
    std::shared_ptr<Impl> impl_;
};

}  // namespace ctrl::rest
