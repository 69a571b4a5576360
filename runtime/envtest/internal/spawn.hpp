#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::envtest::internal {

// The descriptors a spawned child gets as stdin, stdout and stderr; -1 keeps ours.
struct SpawnFds {
    int in = -1;
    int out = -1;
    int err = -1;
};

// fork/exec of argv in a new process group with PR_SET_PDEATHSIG(SIGKILL), default signal dispositions
// and an empty signal mask, every other descriptor closed on exec. `env` is added to our environment.
// Registers the child (see UnregisterChild). Fails with the errno of a failed exec.
StatusOr<pid_t> Spawn(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env,
                      SpawnFds fds);

// The state of a spawned child, checked without blocking and without reaping it.
enum class ChildState { kRunning, kExited, kGone };  // kGone: already reaped (by a teardown thread)
ChildState Peek(pid_t pid);
// Waits until the child has exited or deadline passes, on a pidfd the kernel makes readable when
// the child exits (Linux 5.3 or later), and returns its state then, without reaping it.
ChildState WaitForExit(pid_t pid, std::chrono::steady_clock::time_point deadline);

// Forgets a child someone else reaped.
void UnregisterChild(pid_t pid);

// SIGKILLs what is left of the child's process group, then reaps the child (blocking) and forgets it.
// Returns its wait status, or -1 when someone else reaped it.
int KillGroupAndReap(pid_t pid);

// "exited with code 1", "killed by signal 9 (Killed)".
std::string DescribeWaitStatus(int wait_status);
// The shell's view of a wait status: the exit code, or 128 + signal.
int ExitCodeOf(int wait_status);

}  // namespace ctrl::envtest::internal
