#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::rest::internal {

// A child process to run: what an exec credential plugin is started with.
struct ProcessSpec {
    std::string command;            // a path, or a name looked up in this process's PATH
    std::vector<std::string> args;  // argv[1...]
    std::vector<std::string> env;   // the child's whole environment, "NAME=value"
    // Interactive: the child shares this process's stdin and stderr (it may prompt the user); else
    // stdin is /dev/null, stderr is captured, and the child runs in its own process group so a
    // timeout kills whatever it started as well.
    bool interactive = false;
    std::size_t max_stdout_bytes = 1 << 20;   // more is an error
    std::size_t max_stderr_bytes = 64 << 10;  // the last ones are kept
};

// How the child ended.
struct ProcessResult {
    bool exited = false;     // exit_code is valid
    int exit_code = -1;      // when exited
    int signal = 0;          // the signal that killed it, when it did not exit
    bool timed_out = false;  // killed when the Context's deadline passed
    bool stdout_overflow = false;
    std::string stdout_data;
    std::string stderr_data;  // empty when interactive
};

// Runs a child process without blocking the caller's event loop: its pipes are read and its exit
// is awaited asynchronously on the coroutine's executor (the spawn itself is a vfork+exec). The
// child is killed with SIGKILL when ctx ends (its deadline is the timeout: no timer of its own) and
// when the io_context is destroyed first. Errors: NotFound when the command does not exist,
// Unavailable when it cannot be started; a child that fails is a ProcessResult, not an error. spec
// must outlive the task (it is copied before the first suspension).
Task<StatusOr<ProcessResult>> RunProcess(Context ctx, const ProcessSpec& spec);

}  // namespace ctrl::rest::internal
