// ctrl-control-plane: runs a local control plane (etcd + kube-apiserver, ctrl::envtest::ControlPlane)
// until SIGTERM or SIGINT: for running an operator locally (docs/guide.md) and for ctrl's local demo
// (hack/control-plane.sh wraps it). Installed with ctrl.
//
//   ctrl-control-plane up --dir DIR [--bin-dir DIR] [--setup-command PATH] [--timeout SECONDS]
//                         [--apiserver-flag=--FLAG=VALUE]...
//
// The binaries: --bin-dir, else $CTRL_ENVTEST_BIN_DIR, else what the setup command prints (default:
// the ctrl-setup-envtest installed beside this program, which builds them the first time), else
// ctrl-setup-envtest's cache.

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "ctrl/envtest/control_plane.hpp"
#include "ctrl/envtest/termination.hpp"

namespace {

int Usage() {
    std::cerr << "usage: ctrl-control-plane up --dir DIR [--bin-dir DIR] [--setup-command PATH] [--timeout SECONDS]\n"
                 "                             [--apiserver-flag=--FLAG=VALUE]...\n"
                 "Starts etcd and kube-apiserver on 127.0.0.1 with their files in DIR, writes DIR/kubeconfig\n"
                 "(admin) once they are ready, and runs until SIGTERM or SIGINT. The binaries: --bin-dir, else\n"
                 "$CTRL_ENVTEST_BIN_DIR, else the last line the setup command prints (default: ctrl-setup-envtest\n"
                 "beside this program), else ctrl-setup-envtest's cache.\n";
    return 2;
}

// The ctrl-setup-envtest installed beside this program, if any.
std::vector<std::string> DefaultSetupCommand() {
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error)
        return {};
    const std::filesystem::path setup = self.parent_path() / "ctrl-setup-envtest";
    if (access(setup.c_str(), X_OK) != 0)
        return {};
    return {setup.string()};
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::string_view(argv[1]) != "up")
        return Usage();
    ctrl::envtest::ControlPlane::Options options;
    options.setup_command = DefaultSetupCommand();
    for (int i = 2; i < argc; ++i) {
        std::string_view arg = argv[i];
        auto value = [&](std::string_view flag) -> std::optional<std::string> {
            if (arg.starts_with(std::string(flag) + "="))
                return std::string(arg.substr(flag.size() + 1));
            if (arg == flag && i + 1 < argc)
                return std::string(argv[++i]);
            return std::nullopt;
        };
        if (auto dir = value("--dir")) {
            options.work_dir = *dir;
        } else if (auto bin = value("--bin-dir")) {
            options.binary_dir = *bin;
        } else if (auto setup = value("--setup-command")) {
            options.setup_command = {*setup};
        } else if (auto seconds = value("--timeout")) {
            options.start_timeout = std::chrono::seconds(std::atoi(seconds->c_str()));
        } else if (auto flag = value("--apiserver-flag")) {
            options.apiserver_flags.push_back(*flag);
        } else {
            return Usage();
        }
    }
    if (options.work_dir.empty())
        return Usage();

    ctrl::envtest::InstallTerminationHandler();
    std::filesystem::create_directories(options.work_dir);
    std::string pid_file = options.work_dir + "/ctrl-control-plane.pid";
    std::ofstream(pid_file) << getpid() << "\n";

    ctrl::envtest::ControlPlane control_plane(options);
    ctrl::Status status = control_plane.Start();
    if (!status.Ok()) {
        std::cerr << "ctrl-control-plane: " << status << std::endl;
        std::filesystem::remove(pid_file);
        return 1;
    }
    std::cout << "kubeconfig: " << control_plane.KubeconfigPath() << "\n"
              << "control plane: kube-apiserver " << control_plane.Version() << " at " << control_plane.Host()
              << ", etcd " << control_plane.EtcdVersion() << ", ready in " << control_plane.StartupDuration().count()
              << " ms" << std::endl;

    int sig = ctrl::envtest::WaitForTerminationSignal();
    std::cout << "ctrl-control-plane: signal " << sig << ", stopping" << std::endl;
    control_plane.Stop();
    std::filesystem::remove(pid_file);
    std::cout << "ctrl-control-plane: stopped" << std::endl;
    return 0;
}
