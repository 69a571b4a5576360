#include "ctrl/rest/internal/exec_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "ctrl/core/resume.hpp"

namespace ctrl::rest::internal {
namespace {

using Executor = boost::asio::any_io_executor;
using Done = std::function<void(StatusOr<ProcessResult>)>;

// Without pidfd_open (Linux before 5.3, or a seccomp profile that refuses it) the exit is looked for
// after these delays; with it, the pidfd says when.
constexpr std::chrono::milliseconds kFirstReapDelay{1};
constexpr std::chrono::milliseconds kMaxReapDelay{50};

// One child process and its pipes. Every step after Spawn runs on one strand.
class ProcessOp : public std::enable_shared_from_this<ProcessOp> {
  public:
    ProcessOp(Context ctx, const Executor& executor, ProcessSpec spec, Done done)
        : ctx_(std::move(ctx)),
          strand_(boost::asio::make_strand(executor)),
          out_(strand_),
          err_(strand_),
          exit_(strand_),
          reap_timer_(strand_),
          spec_(std::move(spec)),
          done_(std::move(done)) {}

    ~ProcessOp() {
        ctx_.RemoveCallback(ctx_callback_);
        if (pid_ > 0 && !reaped_) {
            KillChild();
            waitpid(pid_, nullptr, 0);
        }
    }

    ProcessOp(const ProcessOp&) = delete;
    ProcessOp& operator=(const ProcessOp&) = delete;

    // Starts the child with its stdout (and stderr unless interactive) on pipes.
    Status Spawn();

    // Reads the pipes, waits for the exit and kills the child when ctx ends; calls done once.
    void Start() {
        boost::asio::post(strand_, [self = shared_from_this()] { self->StartOnStrand(); });
    }

  private:
    void StartOnStrand() {
        // Runs on the thread that ends ctx (the deadline thread for the timeout), or here.
        std::weak_ptr<ProcessOp> weak = shared_from_this();
        ctx_callback_ = ctx_.OnCancel([weak](const Status& why) {
            if (auto self = weak.lock())
                boost::asio::post(self->strand_, [self, why] { self->OnContextDone(why); });
        });
        ReadStdout();
        if (!spec_.interactive)
            ReadStderr();
    }

    void ReadStdout() {
        out_.async_read_some(boost::asio::buffer(out_buffer_),
                             [self = shared_from_this()](const boost::system::error_code& error, std::size_t n) {
                                 if (error) {
                                     self->ClosePipe(self->out_);
                                     return;
                                 }
                                 ProcessResult& result = self->result_;
                                 if (result.stdout_data.size() + n > self->spec_.max_stdout_bytes)
                                     result.stdout_overflow = true;
                                 else
                                     result.stdout_data.append(self->out_buffer_.data(), n);
                                 self->ReadStdout();
                             });
    }

    void ReadStderr() {
        err_.async_read_some(boost::asio::buffer(err_buffer_),
                             [self = shared_from_this()](const boost::system::error_code& error, std::size_t n) {
                                 if (error) {
                                     self->ClosePipe(self->err_);
                                     return;
                                 }
                                 std::string& data = self->result_.stderr_data;
                                 data.append(self->err_buffer_.data(), n);
                                 const std::size_t max = self->spec_.max_stderr_bytes;
                                 if (data.size() > 2 * max)
                                     data.erase(0, data.size() - max);
                                 self->ReadStderr();
                             });
    }

    void ClosePipe(boost::asio::posix::stream_descriptor& pipe) {
        if (!pipe.is_open())
            return;
        boost::system::error_code ignored;
        pipe.close(ignored);
        if (--open_pipes_ == 0)
            TryReap();
    }

    void TryReap() {
        int status = 0;
        const pid_t waited = waitpid(pid_, &status, WNOHANG);
        if (waited == 0 && exit_.is_open()) {
            // The pidfd turns readable when the child exits.
            exit_.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                             [self = shared_from_this()](const boost::system::error_code& error) {
                                 if (!error)
                                     self->TryReap();
                             });
            return;
        }
        if (waited == 0) {
            reap_timer_.expires_after(reap_delay_);
            reap_delay_ = std::min(reap_delay_ * 2, kMaxReapDelay);
            reap_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
                if (!error)
                    self->TryReap();
            });
            return;
        }
        if (waited < 0 && errno == EINTR) {
            TryReap();
            return;
        }
        reaped_ = true;
        if (waited < 0) {
            // ECHILD: SIGCHLD is ignored in this process, so the kernel reaped the child and its
            // status is lost; the output decides.
            result_.exited = true;
            result_.exit_code = 0;
        } else if (WIFEXITED(status)) {
            result_.exited = true;
            result_.exit_code = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
            result_.signal = WTERMSIG(status);
        }
        Finish();
    }

    void OnContextDone(const Status& why) {
        if (finished_ || reaped_)
            return;
        result_.timed_out = IsTimeout(why);
        KillChild();
        // A grandchild may still hold the pipes open: stop reading so the reap can go on.
        ClosePipe(out_);
        ClosePipe(err_);
    }

    void KillChild() {
        if (!spec_.interactive)
            kill(-pid_, SIGKILL);
        kill(pid_, SIGKILL);
    }

    void Finish() {
        if (finished_)
            return;
        finished_ = true;
        ctx_.RemoveCallback(std::exchange(ctx_callback_, 0));
        reap_timer_.cancel();
        boost::system::error_code ignored;
        exit_.close(ignored);
        Done done = std::move(done_);
        done(std::move(result_));
    }

    const Context ctx_;
    Context::CallbackId ctx_callback_ = 0;
    boost::asio::strand<Executor> strand_;
    boost::asio::posix::stream_descriptor out_;
    boost::asio::posix::stream_descriptor err_;
    boost::asio::posix::stream_descriptor exit_;  // the child's pidfd, when the kernel gives one
    boost::asio::steady_timer reap_timer_;
    ProcessSpec spec_;
    Done done_;
    pid_t pid_ = -1;
    int open_pipes_ = 0;
    bool reaped_ = false;
    bool finished_ = false;
    std::chrono::milliseconds reap_delay_ = kFirstReapDelay;
    std::array<char, 4096> out_buffer_{};
    std::array<char, 4096> err_buffer_{};
    ProcessResult result_;
};

// posix_spawn's file actions and attributes, destroyed on every path.
struct SpawnSetup {
    posix_spawn_file_actions_t actions{};
    posix_spawnattr_t attributes{};
    SpawnSetup() {
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attributes);
    }
    ~SpawnSetup() {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
    }
    SpawnSetup(const SpawnSetup&) = delete;
    SpawnSetup& operator=(const SpawnSetup&) = delete;
};

void CloseBoth(int fds[2]) {
    for (int i = 0; i < 2; ++i) {
        if (fds[i] >= 0)
            close(fds[i]);
        fds[i] = -1;
    }
}

Status SpawnError(int error) {
    if (error == ENOENT)
        return NotFoundError("executable not found");
    return UnavailableError(std::string("cannot start it: ") + std::strerror(error));
}

Status ProcessOp::Spawn() {
    int out_pipe[2] = {-1, -1};
    int err_pipe[2] = {-1, -1};
    if (pipe2(out_pipe, O_CLOEXEC) != 0 || (!spec_.interactive && pipe2(err_pipe, O_CLOEXEC) != 0)) {
        const int error = errno;
        CloseBoth(out_pipe);
        return UnavailableError(std::string("cannot create a pipe: ") + std::strerror(error));
    }
    SpawnSetup setup;
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    if (!spec_.interactive) {
        posix_spawn_file_actions_addopen(&setup.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&setup.actions, err_pipe[1], STDERR_FILENO);
        flags |= POSIX_SPAWN_SETPGROUP;
        posix_spawnattr_setpgroup(&setup.attributes, 0);
    }
    posix_spawn_file_actions_adddup2(&setup.actions, out_pipe[1], STDOUT_FILENO);
    // The child starts with no blocked signals and default handlers (this process may ignore SIGPIPE).
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&setup.attributes, &none);
    sigset_t all;
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    posix_spawnattr_setsigdefault(&setup.attributes, &all);
    posix_spawnattr_setflags(&setup.attributes, flags);

    std::vector<char*> argv;
    argv.push_back(spec_.command.data());
    for (std::string& arg : spec_.args)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (std::string& entry : spec_.env)
        envp.push_back(entry.data());
    envp.push_back(nullptr);

    const int spawned =
        posix_spawnp(&pid_, spec_.command.c_str(), &setup.actions, &setup.attributes, argv.data(), envp.data());
    close(out_pipe[1]);
    if (err_pipe[1] >= 0)
        close(err_pipe[1]);
    if (spawned != 0) {
        pid_ = -1;
        close(out_pipe[0]);
        if (err_pipe[0] >= 0)
            close(err_pipe[0]);
        return SpawnError(spawned);
    }
    boost::system::error_code error;
    out_.assign(out_pipe[0], error);
    open_pipes_ = 1;
    if (!spec_.interactive) {
        err_.assign(err_pipe[0], error);
        open_pipes_ = 2;
    }
    // Close-on-exec by definition. Failing (an old kernel), the reap falls back to looking.
    if (const long pidfd = syscall(SYS_pidfd_open, pid_, 0); pidfd >= 0)
        exit_.assign(static_cast<int>(pidfd), error);
    return OkStatus();
}

}  // namespace

Task<StatusOr<ProcessResult>> RunProcess(Context ctx, const ProcessSpec& spec) {
    const Executor executor = co_await boost::asio::this_coro::executor;
    // Named, not a lambda inside the co_await expression (GCC 12 destroys those twice).
    std::function<void(Done)> start = [&ctx, &spec, &executor](Done done) {
        auto op = std::make_shared<ProcessOp>(ctx, executor, spec, done);
        Status spawned = op->Spawn();
        if (!spawned.Ok()) {
            done(spawned);
            return;
        }
        op->Start();
    };
    co_return co_await Suspend<StatusOr<ProcessResult>>(std::move(start));
}

}  // namespace ctrl::rest::internal
