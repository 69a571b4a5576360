#include "ctrl/envtest/internal/spawn.hpp"

#include <fcntl.h>
#include <linux/close_range.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "ctrl/envtest/process.hpp"

extern char** environ;

namespace ctrl::envtest::internal {
namespace {

// Live children, kept in a fixed array of atomics so a signal handler can read it.
constexpr int kMaxChildren = 64;
std::atomic<pid_t> g_children[kMaxChildren];

void RegisterChild(pid_t pid) {
    for (auto& slot : g_children) {
        pid_t expected = 0;
        if (slot.compare_exchange_strong(expected, pid))
            return;
    }
}

StatusOr<std::string> ResolveExecutable(const std::string& name) {
    if (name.find('/') != std::string::npos)
        return name;
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    size_t begin = 0;
    while (begin <= dirs.size()) {
        size_t end = dirs.find(':', begin);
        if (end == std::string::npos)
            end = dirs.size();
        std::string candidate = (end > begin ? dirs.substr(begin, end - begin) : ".") + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0)
            return candidate;
        begin = end + 1;
    }
    return NotFoundError("command not found in $PATH: " + name);
}

std::vector<std::string> MergedEnvironment(const std::vector<std::pair<std::string, std::string>>& extra) {
    std::vector<std::string> out;
    for (char** entry = environ; entry && *entry; ++entry) {
        std::string_view kv(*entry);
        bool overridden = false;
        for (const auto& [key, value] : extra) {
            if (kv.size() > key.size() && kv.substr(0, key.size()) == key && kv[key.size()] == '=')
                overridden = true;
        }
        if (!overridden)
            out.emplace_back(kv);
    }
    for (const auto& [key, value] : extra)
        out.push_back(key + "=" + value);
    return out;
}

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void ExecChild(pid_t parent, const char* path, char* const* argv, char* const* envp, SpawnFds fds,
                            int error_fd) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);  // the parent died before prctl took effect
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig : {SIGINT, SIGTERM, SIGQUIT, SIGPIPE, SIGCHLD})
        sigaction(sig, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (fds.in >= 0)
        dup2(fds.in, STDIN_FILENO);
    if (fds.out >= 0)
        dup2(fds.out, STDOUT_FILENO);
    if (fds.err >= 0)
        dup2(fds.err, STDERR_FILENO);
    syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
    execve(path, argv, envp);
    int err = errno;
    [[maybe_unused]] ssize_t ignored = write(error_fd, &err, sizeof(err));
    _exit(127);
}

}  // namespace

StatusOr<pid_t> Spawn(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env,
                      SpawnFds fds) {
    if (argv.empty())
        return InternalError("spawn: empty argv");
    CTRL_ASSIGN_OR_RETURN(std::string path, ResolveExecutable(argv[0]));
    // Everything the child needs is built before fork: it must not allocate.
    std::vector<char*> c_argv;
    for (const auto& arg : argv)
        c_argv.push_back(const_cast<char*>(arg.c_str()));
    c_argv.push_back(nullptr);
    std::vector<std::string> env_strings = MergedEnvironment(env);
    std::vector<char*> c_env;
    for (const auto& entry : env_strings)
        c_env.push_back(const_cast<char*>(entry.c_str()));
    c_env.push_back(nullptr);

    int error_pipe[2];
    if (pipe2(error_pipe, O_CLOEXEC) != 0)
        return InternalError(std::string("pipe2: ") + std::strerror(errno));
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(error_pipe[0]);
        close(error_pipe[1]);
        return InternalError("fork " + argv[0] + ": " + std::strerror(err));
    }
    if (pid == 0)
        ExecChild(parent, path.c_str(), c_argv.data(), c_env.data(), fds, error_pipe[1]);
    setpgid(pid, pid);  // also done by the child; whichever runs first wins the race
    RegisterChild(pid);
    close(error_pipe[1]);
    int exec_errno = 0;
    ssize_t n;
    do {
        n = read(error_pipe[0], &exec_errno, sizeof(exec_errno));
    } while (n < 0 && errno == EINTR);
    close(error_pipe[0]);
    if (n > 0) {
        KillGroupAndReap(pid);
        return InternalError("cannot execute " + path + ": " + std::strerror(exec_errno));
    }
    return pid;
}

void UnregisterChild(pid_t pid) {
    for (auto& slot : g_children) {
        pid_t expected = pid;
        if (slot.compare_exchange_strong(expected, 0))
            return;
    }
}

ChildState Peek(pid_t pid) {
    siginfo_t info{};
    int r;
    do {
        r = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
    } while (r < 0 && errno == EINTR);
    if (r < 0)
        return ChildState::kGone;
    return info.si_pid == pid ? ChildState::kExited : ChildState::kRunning;
}

ChildState WaitForExit(pid_t pid, std::chrono::steady_clock::time_point deadline) {
    const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
    if (pidfd < 0)
        return Peek(pid);  // reaped already (ESRCH): gone
    // Opened before the check, so it names this child unless Peek says it is gone.
    ChildState state = Peek(pid);
    while (state == ChildState::kRunning) {
        const auto left =
            std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0)
            break;
        pollfd exited{pidfd, POLLIN, 0};
        const int ready = poll(&exited, 1, static_cast<int>(std::min<int64_t>(left, 1'000'000)));
        if (ready < 0 && errno != EINTR)
            break;
        state = Peek(pid);
    }
    close(pidfd);
    return state;
}

int KillGroupAndReap(pid_t pid) {
    // While the leader is an unreaped zombie its process group id cannot be reused.
    kill(-pid, SIGKILL);
    int wait_status = 0;
    pid_t r;
    do {
        r = waitpid(pid, &wait_status, 0);
    } while (r < 0 && errno == EINTR);
    UnregisterChild(pid);
    return r == pid ? wait_status : -1;
}

std::string DescribeWaitStatus(int wait_status) {
    if (WIFEXITED(wait_status))
        return "exited with code " + std::to_string(WEXITSTATUS(wait_status));
    if (WIFSIGNALED(wait_status)) {
        int sig = WTERMSIG(wait_status);
        return "killed by signal " + std::to_string(sig) + " (" + sigdescr_np(sig) + ")";
    }
    return "ended with wait status " + std::to_string(wait_status);
}

int ExitCodeOf(int wait_status) {
    if (WIFEXITED(wait_status))
        return WEXITSTATUS(wait_status);
    if (WIFSIGNALED(wait_status))
        return 128 + WTERMSIG(wait_status);
    return -1;
}

}  // namespace ctrl::envtest::internal

namespace ctrl::envtest {

void KillAllChildrenNow() {
    for (auto& slot : internal::g_children) {
        pid_t pid = slot.load();
        if (pid > 0)
            kill(-pid, SIGKILL);
    }
}

void TerminateAllChildren(std::chrono::milliseconds grace) {
    std::vector<pid_t> pids;
    for (auto& slot : internal::g_children) {
        pid_t pid = slot.load();
        if (pid > 0) {
            pids.push_back(pid);
            kill(-pid, SIGTERM);
        }
    }
    const auto deadline = std::chrono::steady_clock::now() + grace;
    for (pid_t pid : pids) {
        const internal::ChildState state = internal::WaitForExit(pid, deadline);
        if (state == internal::ChildState::kGone) {
            internal::UnregisterChild(pid);
        } else {
            internal::KillGroupAndReap(pid);
        }
    }
}

}  // namespace ctrl::envtest
