#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::envtest {

// A long-running child process (etcd, kube-apiserver) started with fork/exec in its own process
// group, stdin from /dev/null, stdout and stderr appended to a log file. The kernel kills it
// (SIGKILL) when the thread that started it exits, so a test process that dies, even by SIGKILL,
// leaves nothing behind: start it from a thread that outlives it (the main thread). Move-only;
// the destructor stops it. Not thread-safe: one owner drives it.
class ChildProcess final {
  public:
    // Starts argv[0] (an absolute path or a name looked up in $PATH) with the caller's environment.
    static StatusOr<ChildProcess> Start(const std::vector<std::string>& argv, const std::string& log_path);

    ChildProcess() = default;
    ChildProcess(ChildProcess&& other) noexcept;
    ChildProcess& operator=(ChildProcess&& other) noexcept;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess();

    // 0 once reaped, or for a default-constructed object.
    pid_t Pid() const { return pid_; }
    const std::string& LogPath() const { return log_path_; }

    // True while the process runs; reaps it (without blocking) when it has exited.
    bool Running();
    // Waits until the process has exited (reaping it) or deadline passes; returns !Running().
    bool WaitForExit(std::chrono::steady_clock::time_point deadline);
    // How it ended ("exited with code 1", "killed by signal 9"); empty while it runs.
    const std::string& ExitDescription() const { return exit_description_; }

    // SIGTERM to the process group, then SIGKILL once `grace` has passed; reaps it. Returns how it ended.
    std::string Stop(std::chrono::milliseconds grace);

  private:
    void Reaped(int wait_status);

    pid_t pid_ = 0;
    std::string log_path_;
    std::string exit_description_;
};

// The last `max_lines` lines of a text file ("" when it cannot be read).
std::string TailOfFile(const std::string& path, int max_lines);

// SIGKILLs the process group of every live ChildProcess and RunCommand child. Async-signal-safe: for
// signal handlers.
void KillAllChildrenNow();

// SIGTERMs every live child's process group, waits up to `grace` for them to exit, SIGKILLs what is
// left and reaps them. For a signal-handling thread tearing down while other threads may be stuck.
void TerminateAllChildren(std::chrono::milliseconds grace);

}  // namespace ctrl::envtest
