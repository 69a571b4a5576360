#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "test/support/command.hpp"

namespace ctrl::testing {

// Runs the installed kubectl (from $PATH) with --kubeconfig and `args`, with a deadline. A
// non-zero exit is a result (see CommandResult); the error cases are those of RunCommand.
StatusOr<CommandResult> Kubectl(const std::string& kubeconfig, const std::vector<std::string>& args,
                                std::chrono::milliseconds timeout = std::chrono::seconds(30),
                                const std::string& stdin_data = "");

// Kubectl, returning its stdout; a non-zero exit is an InternalError naming the command, its exit
// code and its stderr.
StatusOr<std::string> KubectlOutput(const std::string& kubeconfig, const std::vector<std::string>& args,
                                    std::chrono::milliseconds timeout = std::chrono::seconds(30),
                                    const std::string& stdin_data = "");

}  // namespace ctrl::testing
