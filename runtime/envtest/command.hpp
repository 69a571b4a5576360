#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::envtest {

// What a finished command printed and how it exited.
struct CommandResult {
    int exit_code = -1;  // 128 + N when killed by signal N
    std::string out;     // stdout
    std::string err;     // stderr; empty when Command::inherit_stderr
};

// A short-lived command run to completion with a deadline (openssl, curl, kubectl, setup-envtest).
struct Command {
    std::vector<std::string> argv{};                         // argv[0]: absolute path or looked up in $PATH
    std::chrono::milliseconds timeout{30'000};               // the whole process group is killed after it
    std::string stdin_data{};                                // written to the command's stdin
    bool inherit_stderr = false;                             // let stderr through to ours (progress output)
    std::vector<std::pair<std::string, std::string>> env{};  // added to (or overriding) our environment
};

// Runs a command in its own process group, like ChildProcess. A non-zero exit is a result, not an error;
// the error cases are: it could not be started (Internal) or it ran past its timeout (Timeout, with the
// output so far in the message).
StatusOr<CommandResult> RunCommand(const Command& command);

}  // namespace ctrl::envtest
