#include "test/support/kubectl.hpp"

namespace ctrl::testing {

StatusOr<CommandResult> Kubectl(const std::string& kubeconfig, const std::vector<std::string>& args,
                                std::chrono::milliseconds timeout, const std::string& stdin_data) {
    Command command{.argv = {"kubectl", "--kubeconfig=" + kubeconfig}, .timeout = timeout, .stdin_data = stdin_data};
    command.argv.insert(command.argv.end(), args.begin(), args.end());
    return RunCommand(command);
}

}  // namespace ctrl::testing
