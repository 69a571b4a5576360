#include "test/support/kubectl.hpp"

#include <utility>

namespace ctrl::testing {

StatusOr<CommandResult> Kubectl(const std::string& kubeconfig, const std::vector<std::string>& args,
                                std::chrono::milliseconds timeout, const std::string& stdin_data) {
    Command command{.argv = {"kubectl", "--kubeconfig=" + kubeconfig}, .timeout = timeout, .stdin_data = stdin_data};
    command.argv.insert(command.argv.end(), args.begin(), args.end());
    return RunCommand(command);
}

StatusOr<std::string> KubectlOutput(const std::string& kubeconfig, const std::vector<std::string>& args,
                                    std::chrono::milliseconds timeout, const std::string& stdin_data) {
    CTRL_ASSIGN_OR_RETURN(CommandResult result, Kubectl(kubeconfig, args, timeout, stdin_data));
    if (result.exit_code != 0) {
        std::string command = "kubectl";
        for (const std::string& arg : args)
            command += " " + arg;
        return InternalError(command + ": exit code " + std::to_string(result.exit_code) + ": " + result.err);
    }
    return std::move(result.out);
}

}  // namespace ctrl::testing
