#include "ctrl/rest/exec_credential.hpp"

#include <unistd.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <utility>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include "ctrl/core/resume.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/rest/internal/exec_json.hpp"
#include "ctrl/rest/internal/exec_process.hpp"
#include "ctrl/rest/internal/kubeconfig_env.hpp"

extern char** environ;

namespace ctrl::rest {
namespace {

using Clock = std::chrono::system_clock;
using Completion = std::function<void(StatusOr<ExecCredential>)>;

constexpr std::size_t kMaxStderrInMessage = 1024;

// Lines name the command, never its args or env (they may hold credentials), nor what it printed.
const log::Logger& Log() {
    static const log::Logger logger = log::Logger().WithName("rest").WithName("exec");
    return logger;
}

// This process's environment, then the plugin's variables, then KUBERNETES_EXEC_INFO; a later
// definition of a name replaces an earlier one (as Go's os/exec does).
std::vector<std::string> PluginEnvironment(const ExecConfig& exec, const std::string& exec_info) {
    std::vector<std::string> env;
    auto set = [&env](const std::string& name, const std::string& value) {
        const std::string prefix = name + "=";
        std::erase_if(env, [&](const std::string& entry) { return entry.compare(0, prefix.size(), prefix) == 0; });
        env.push_back(prefix + value);
    };
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry)
        env.emplace_back(*entry);
    for (const auto& [name, value] : exec.env)
        set(name, value);
    set("KUBERNETES_EXEC_INFO", exec_info);
    return env;
}

}  // namespace

struct ExecCredentialProvider::Impl {
    Config config;
    ExecProviderOptions options;
    std::atomic<int> runs{0};

    std::mutex mu;
    std::optional<ExecCredential> cached;       // guarded by mu
    std::optional<Clock::time_point> stale_at;  // when cached must be refreshed; nullopt: never
    bool running = false;
    std::vector<Completion> waiters;

    const ExecConfig& Exec() const { return *config.exec; }

    bool FreshLocked() const { return cached && (!stale_at || options.clock() < *stale_at); }

    void StoreLocked(const ExecCredential& credential, Clock::time_point fetched_at) {
        cached = credential;
        stale_at.reset();
        if (!credential.expiration)
            return;
        const Clock::duration lifetime = *credential.expiration - fetched_at;
        Clock::duration skew = std::chrono::duration_cast<Clock::duration>(options.refresh_before_expiry);
        skew = std::max(Clock::duration::zero(), std::min(skew, lifetime / 4));
        stale_at = *credential.expiration - skew;
    }

    // "exec plugin <command>: <problem>; stderr: "..."; install hint: ..." as Unauthorized.
    Status RunError(const std::string& problem, const std::string& stderr_data) const {
        std::string message = "exec plugin " + Exec().command + ": " + problem;
        std::string_view err = internal::TrimSpace(stderr_data);
        if (!err.empty()) {
            const bool cut = err.size() > kMaxStderrInMessage;
            if (cut)
                err = internal::TrimSpace(err.substr(err.size() - kMaxStderrInMessage));
            message += "; stderr: \"" + std::string(cut ? "..." : "") + std::string(err) + "\"";
        }
        if (!Exec().install_hint.empty())
            message += "; install hint: " + Exec().install_hint;
        return UnauthorizedError(std::move(message));
    }

    StatusOr<bool> Interactive() const {
        const bool terminal = options.stdin_is_terminal.value_or(isatty(STDIN_FILENO) == 1);
        const std::string& mode = Exec().interactive_mode;
        if (mode == "Never")
            return false;
        if (mode == "Always" && !terminal)
            return BadRequestError("exec plugin " + Exec().command +
                                   ": interactiveMode is Always but standard input is not a terminal");
        return terminal;
    }

    Task<StatusOr<ExecCredential>> RunPlugin() {
        CTRL_CO_ASSIGN_OR_RETURN(const bool interactive, Interactive());
        internal::ProcessSpec spec;
        spec.command = Exec().command;
        spec.args = Exec().args;
        spec.env = PluginEnvironment(Exec(), internal::BuildExecInfo(config, interactive));
        spec.interactive = interactive;
        runs.fetch_add(1);
        Log().V(2).Info("running the exec credential plugin", "command", Exec().command, "apiVersion",
                        Exec().api_version, "interactive", interactive);
        // The plugin's timeout is the deadline of the run's Context: it kills the child when it fires.
        const Context run_ctx = Context::WithTimeout(Context::Background(), options.timeout);
        auto ran = co_await internal::RunProcess(run_ctx, spec);
        if (!ran.Ok())
            co_return RunError(ran.GetStatus().Message(), "");
        const internal::ProcessResult& result = *ran;
        if (result.timed_out)
            co_return RunError("killed after " + std::to_string(options.timeout.count()) + " ms without finishing",
                               result.stderr_data);
        if (!result.exited)
            co_return RunError("killed by signal " + std::to_string(result.signal), result.stderr_data);
        if (result.exit_code != 0)
            co_return RunError("exited with code " + std::to_string(result.exit_code), result.stderr_data);
        if (result.stdout_overflow)
            co_return RunError("its output is too large", result.stderr_data);
        auto credential = internal::ParseExecCredential(result.stdout_data, Exec().api_version);
        if (!credential.Ok())
            co_return RunError(credential.GetStatus().Message(), result.stderr_data);
        co_return credential;
    }

    // One run of the plugin on behalf of every waiter registered until it ends.
    static Task<void> Run(std::shared_ptr<Impl> impl) {
        const Clock::time_point started = impl->options.clock();
        StatusOr<ExecCredential> result = InternalError("exec plugin run did not finish");
        try {
            result = co_await impl->RunPlugin();
        } catch (const std::exception& e) {
            result = InternalError(std::string("exec plugin run failed: ") + e.what());
        }
        if (result.Ok()) {
            Log().V(2).Info("the exec credential plugin returned a credential", "command", impl->Exec().command,
                            "token", !result->token.empty(), "clientCertificate",
                            !result->client_certificate_pem.empty(), "expires", result->expiration.has_value());
        } else {
            Log().Error(result.GetStatus(), "the exec credential plugin failed", "command", impl->Exec().command);
        }
        std::vector<Completion> waiters;
        {
            std::lock_guard lock(impl->mu);
            impl->running = false;
            waiters.swap(impl->waiters);
            if (result.Ok())
                impl->StoreLocked(*result, started);
        }
        for (Completion& waiter : waiters)
            waiter(result);
    }
};

Status ValidateExecConfig(const ExecConfig& exec) {
    if (exec.api_version.empty())
        return BadRequestError("apiVersion is not set");
    if (exec.api_version != kExecApiV1 && exec.api_version != kExecApiV1Beta1)
        return BadRequestError("apiVersion \"" + exec.api_version + "\" is not supported (use " +
                               std::string(kExecApiV1) + " or " + std::string(kExecApiV1Beta1) + ")");
    if (exec.command.empty())
        return BadRequestError("command is not set");
    const std::string& mode = exec.interactive_mode;
    if (mode != "Never" && mode != "IfAvailable" && mode != "Always")
        return BadRequestError("invalid interactiveMode \"" + mode + "\" (use Never, IfAvailable or Always)");
    for (const auto& [name, value] : exec.env) {
        if (name.empty())
            return BadRequestError("an env variable has no name");
    }
    return OkStatus();
}

StatusOr<std::shared_ptr<ExecCredentialProvider>> ExecCredentialProvider::New(const Config& config,
                                                                              ExecProviderOptions options) {
    if (!config.exec)
        return BadRequestError("exec credential provider: the config has no exec plugin");
    Status valid = ValidateExecConfig(*config.exec);
    if (!valid.Ok())
        return valid.Annotate(config.exec->command.empty() ? "exec plugin" : "exec plugin " + config.exec->command);
    auto impl = std::make_shared<Impl>();
    impl->config = config;
    if (!options.clock)
        options.clock = [] { return Clock::now(); };
    impl->options = std::move(options);
    return std::shared_ptr<ExecCredentialProvider>(new ExecCredentialProvider(std::move(impl)));
}

ExecCredentialProvider::ExecCredentialProvider(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

ExecCredentialProvider::~ExecCredentialProvider() = default;

Task<StatusOr<ExecCredential>> ExecCredentialProvider::Get(Context ctx) {
    CTRL_CO_RETURN_IF_ERROR(ctx.Err());
    std::shared_ptr<Impl> impl = impl_;
    std::optional<ExecCredential> fresh;
    {
        std::lock_guard lock(impl->mu);
        if (impl->FreshLocked())
            fresh = impl->cached;
    }
    if (fresh)
        co_return std::move(*fresh);
    const boost::asio::any_io_executor executor = co_await boost::asio::this_coro::executor;
    // A named function, not a lambda inside the co_await expression: GCC 12 destroys such a
    // temporary twice (docs/decisions.md, decision 16), which would release impl twice.
    std::function<void(Completion)> join = [impl, executor](Completion complete) {
        std::optional<ExecCredential> now_fresh;
        bool start = false;
        {
            std::lock_guard lock(impl->mu);
            if (impl->FreshLocked()) {
                now_fresh = impl->cached;
            } else {
                impl->waiters.push_back(complete);
                start = !impl->running;
                impl->running = true;
            }
        }
        if (now_fresh) {
            complete(std::move(*now_fresh));
        } else if (start) {
            boost::asio::co_spawn(executor, Impl::Run(impl), boost::asio::detached);
        }
    };
    co_return co_await Suspend<StatusOr<ExecCredential>>(ctx, std::move(join));
}

void ExecCredentialProvider::Invalidate() {
    Log().V(2).Info("dropping the cached exec credential", "command", impl_->Exec().command);
    std::lock_guard lock(impl_->mu);
    impl_->cached.reset();
    impl_->stale_at.reset();
}

int ExecCredentialProvider::RunCount() const {
    return impl_->runs.load();
}

}  // namespace ctrl::rest
