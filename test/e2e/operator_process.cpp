#include "test/e2e/operator_process.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test/e2e/operator_container.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/free_port.hpp"
#include "test/support/kubeconfig.hpp"

namespace ctrl::e2e {
namespace {

constexpr char kServiceAccountDir[] = "/var/run/secrets/kubernetes.io/serviceaccount";

Status WriteFile(const std::string& path, const std::string& content) {
    std::ofstream out(path, std::ios::trunc);
    out << content;
    out.close();
    if (!out)
        return InternalError("cannot write " + path);
    return OkStatus();
}

StatusOr<std::string> ReadFile(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        return NotFoundError("cannot read " + path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

bool Contains(const std::vector<std::string>& args, const std::string& arg) {
    for (const std::string& a : args) {
        if (a == arg)
            return true;
    }
    return false;
}

// Whether /metrics is HTTPS: --metrics-secure defaults to true in-cluster, false otherwise.
bool MetricsSecure(const OperatorOptions& options) {
    if (Contains(options.args, "--metrics-secure=false"))
        return false;
    return options.in_cluster || options.container || Contains(options.args, "--metrics-secure") ||
           Contains(options.args, "--metrics-secure=true");
}

// The script run in the private mount namespace: a tmpfs over /run (/var/run points there; it
// does not exist on the machine, so it cannot be mounted over by itself), the test's directory
// bound at the service-account path, then the operator in its place (same process id).
std::string InClusterScript(const std::string& secrets_dir) {
    return std::string("set -e; mount -t tmpfs ctrl-e2e-run /run; mkdir -p ") + kServiceAccountDir +
           "; mount --bind '" + secrets_dir + "' " + kServiceAccountDir + "; exec \"$@\"";
}

// The files a kubelet mounts at kServiceAccountDir, in a new directory `dir`: the token, the control
// plane's CA, the namespace (ctrl-system). Readable by anyone (a kubelet's default mode 0644), so
// the container's user 65532 reads them.
Status WriteServiceAccountFiles(const std::string& dir, const std::string& token) {
    std::filesystem::create_directories(dir);
    std::filesystem::permissions(dir, std::filesystem::perms(0755));
    CTRL_ASSIGN_OR_RETURN(std::string ca, ReadFile(testing::SharedControlPlane().CaFile()));
    CTRL_RETURN_IF_ERROR(WriteFile(dir + "/token", token));
    CTRL_RETURN_IF_ERROR(WriteFile(dir + "/ca.crt", ca));
    CTRL_RETURN_IF_ERROR(WriteFile(dir + "/namespace", std::string(kOperatorNamespace)));
    for (const char* file : {"/token", "/ca.crt", "/namespace"})
        std::filesystem::permissions(dir + file, std::filesystem::perms(0644));
    return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<OperatorProcess>> OperatorProcess::Start(const OperatorOptions& options) {
    std::unique_ptr<OperatorProcess> process(new OperatorProcess());
    process->name_ = options.name;
    std::string pattern = ::testing::TempDir() + "ctrl-e2e-" + options.name + "-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr)
        return InternalError("mkdtemp " + pattern + " failed");
    process->dir_ = pattern;
    CTRL_ASSIGN_OR_RETURN(process->token_, ServiceAccountToken(options.service_account));
    // A port taken between FreePorts and the operator's bind makes it exit at once: try again.
    Status launched = OkStatus();
    for (int attempt = 0; attempt < 3; ++attempt) {
        launched = process->Launch(options);
        if (launched.Ok() || process->Log().find("in use") == std::string::npos)
            break;
    }
    if (!launched.Ok())
        return launched;
    return process;
}

Status OperatorProcess::Launch(const OperatorOptions& options) {
    CTRL_ASSIGN_OR_RETURN(std::vector<int> ports, testing::FreePorts(2));
    const bool secure = MetricsSecure(options);
    metrics_url_ = std::string(secure ? "https" : "http") + "://127.0.0.1:" + std::to_string(ports[0]) + "/metrics";
    probe_url_ = "http://127.0.0.1:" + std::to_string(ports[1]);
    std::vector<std::string> command{CTRL_OPERATOR_BIN, "--metrics-bind-address=127.0.0.1:" + std::to_string(ports[0]),
                                     "--health-probe-bind-address=127.0.0.1:" + std::to_string(ports[1])};
    if (!options.watch_namespaces.empty()) {
        std::string joined;
        for (const std::string& ns : options.watch_namespaces)
            joined += (joined.empty() ? "" : ",") + ns;
        command.push_back("--watch-namespaces=" + joined);
    }
    command.insert(command.end(), options.args.begin(), options.args.end());

    const testing::ControlPlane& control_plane = testing::SharedControlPlane();
    std::vector<std::string> argv;
    if (options.container && (!options.kubeconfig.empty() || !options.server.empty()))
        return InvalidError("operator " + name_ + ": a container runs in-cluster, without kubeconfig or server");
    if (!options.in_cluster && !options.container) {
        std::string kubeconfig = options.kubeconfig;
        if (kubeconfig.empty()) {
            kubeconfig = dir_ + "/kubeconfig";
            CTRL_RETURN_IF_ERROR(testing::WriteKubeconfig(
                kubeconfig, {.server = options.server.empty() ? control_plane.Host() : options.server,
                             .ca_file = control_plane.CaFile(),
                             .user = options.service_account,
                             .token = token_}));
        }
        argv = command;
        argv.insert(argv.begin() + 1, {"--kubeconfig", kubeconfig});
    } else if (options.container) {
        const std::string secrets = dir_ + "/serviceaccount";
        CTRL_RETURN_IF_ERROR(WriteServiceAccountFiles(secrets, token_));
        const std::string& host = control_plane.Host();  // https://127.0.0.1:<port>
        // The container's name: the work directory's (unique) suffix keeps concurrent tests apart.
        container_name_ = "ctrl-e2e-" + name_ + "-" + dir_.substr(dir_.size() - 6);
        argv = ContainerRunCommand({.name = container_name_,
                                    .service_account_dir = secrets,
                                    .service_host = "127.0.0.1",
                                    .service_port = host.substr(host.rfind(':') + 1),
                                    .args = std::vector<std::string>(command.begin() + 1, command.end())});
    } else {
        const std::string secrets = dir_ + "/serviceaccount";
        const std::string home = dir_ + "/home";
        CTRL_RETURN_IF_ERROR(WriteServiceAccountFiles(secrets, token_));
        std::filesystem::create_directories(home);
        const std::string& host = control_plane.Host();  // https://127.0.0.1:<port>
        const size_t colon = host.rfind(':');
        argv = {"env",
                "-u",
                "KUBECONFIG",
                "-u",
                "POD_NAMESPACE",
                "HOME=" + home,
                "KUBERNETES_SERVICE_HOST=127.0.0.1",
                "KUBERNETES_SERVICE_PORT=" + host.substr(colon + 1),
                "unshare",
                "--mount",
                "--propagation",
                "private"};
        if (geteuid() != 0)
            argv.push_back("--map-root-user");  // an unprivileged user gets mount rights in a user namespace
        argv.insert(argv.end(), {"--", "/bin/sh", "-c", InClusterScript(secrets), "sh"});
        argv.insert(argv.end(), command.begin(), command.end());
    }
    const std::string log = dir_ + "/operator.log";
    std::filesystem::remove(log);
    CTRL_ASSIGN_OR_RETURN(process_, testing::ChildProcess::Start(argv, log));
    const bool serving = testing::Eventually([&] { return !process_.Running() || Probe("/healthz").status == 200; },
                                             testing::kTestWait, std::chrono::milliseconds(100));
    if (!process_.Running())
        return InternalError("the operator " + name_ + " exited before serving /healthz: " + LogTail(40));
    if (!serving)
        return TimeoutError("the operator " + name_ + " did not serve /healthz: " + LogTail(40));
    return OkStatus();
}

OperatorProcess::~OperatorProcess() {
    if (!container_name_.empty() && process_.Running()) {
        const Status stopped = StopContainer(container_name_, std::chrono::seconds(15));
        if (!stopped.Ok())
            std::printf("[ e2e ] stopping container %s: %s\n", container_name_.c_str(), stopped.ToString().c_str());
    }
    if (process_.Pid() != 0)
        process_.Stop(std::chrono::seconds(15));
    if (dir_.empty())
        return;
    if (::testing::Test::HasFailure()) {
        std::printf("[ e2e ] kept the work directory of operator %s: %s\n", name_.c_str(), dir_.c_str());
        return;
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

testing::CurlResult OperatorProcess::Probe(const std::string& path) const {
    return testing::Curl(probe_url_ + path);
}

testing::CurlResult OperatorProcess::Metrics(const std::string& token) const {
    return testing::Curl(metrics_url_, token);
}

std::string OperatorProcess::MetricsText() const {
    testing::CurlResult result = Metrics();
    return result.status == 200 ? result.body : "";
}

std::string OperatorProcess::Log() const {
    StatusOr<std::string> text = ReadFile(LogPath());
    return text.Ok() ? *text : "";
}

std::string OperatorProcess::LogTail(int lines) const {
    const std::string how = process_.ExitDescription().empty() ? "running" : process_.ExitDescription();
    return "\n--- operator " + name_ + " (pid " + std::to_string(process_.Pid()) + ", " + how + "), log " + LogPath() +
           ", last " + std::to_string(lines) + " lines:\n" + testing::TailOfFile(LogPath(), lines) + "---\n";
}

int OperatorProcess::LogLinesWith(const std::vector<std::string>& parts) const {
    std::istringstream in(Log());
    int count = 0;
    for (std::string line; std::getline(in, line);) {
        bool all = true;
        for (const std::string& part : parts)
            all = all && line.find(part) != std::string::npos;
        count += all ? 1 : 0;
    }
    return count;
}

}  // namespace ctrl::e2e
