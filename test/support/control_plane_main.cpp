// ctrl-control-plane: runs the local control plane of the tests (etcd + kube-apiserver) for the
// local demo, until SIGTERM or SIGINT. hack/control-plane.sh wraps it.
//
//   ctrl-control-plane up --dir DIR [--bin-dir DIR] [--timeout SECONDS] [--apiserver-flag=--FLAG=VALUE]...

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "test/support/control_plane.hpp"
#include "test/support/termination.hpp"

namespace {

int Usage() {
    std::cerr << "usage: ctrl-control-plane up --dir DIR [--bin-dir DIR] [--timeout SECONDS]\n"
                 "                             [--apiserver-flag=--FLAG=VALUE]...\n"
                 "Starts etcd and kube-apiserver on 127.0.0.1 with their files in DIR, writes DIR/kubeconfig\n"
                 "(admin), and runs until SIGTERM or SIGINT.\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::string_view(argv[1]) != "up")
        return Usage();
    ctrl::testing::ControlPlane::Options options;
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

    ctrl::testing::InstallTerminationHandler();
    std::filesystem::create_directories(options.work_dir);
    std::string pid_file = options.work_dir + "/ctrl-control-plane.pid";
    std::ofstream(pid_file) << getpid() << "\n";

    ctrl::testing::ControlPlane control_plane(options);
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

    int sig = ctrl::testing::WaitForTerminationSignal();
    std::cout << "ctrl-control-plane: signal " << sig << ", stopping" << std::endl;
    control_plane.Stop();
    std::filesystem::remove(pid_file);
    std::cout << "ctrl-control-plane: stopped" << std::endl;
    return 0;
}
