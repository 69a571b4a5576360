#include "ctrl/envtest/control_plane.hpp"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <thread>

#include "ctrl/envtest/binary_dir.hpp"
#include "ctrl/envtest/command.hpp"
#include "ctrl/envtest/free_port.hpp"
#include "ctrl/envtest/internal/http_get.hpp"
#include "ctrl/envtest/kubeconfig.hpp"
#include "ctrl/envtest/termination.hpp"

namespace ctrl::envtest {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr char kTempPrefix[] = "ctrl-control-plane-";
constexpr char kOwnerFile[] = "owner.pid";
constexpr char kKeepEnv[] = "CTRL_KEEP_CONTROL_PLANE_DIR";
constexpr int kLogTailLines = 30;
constexpr int kLaunchAttempts = 3;

bool EnvSet(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0';
}

std::string LogTail(const std::string& log_path) {
    return "\n--- last lines of " + log_path + " ---\n" + TailOfFile(log_path, kLogTailLines);
}

// Removes the temporary work dirs of earlier runs that were killed before they could clean up: those
// whose owner process is gone. Kept directories have no owner file.
void RemoveStaleWorkDirs(const fs::path& base) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(base, ec)) {
        if (!entry.path().filename().string().starts_with(kTempPrefix))
            continue;
        std::ifstream owner(entry.path() / kOwnerFile);
        pid_t pid = 0;
        if (!(owner >> pid) || pid <= 0)
            continue;
        if (kill(pid, 0) != 0 && errno == ESRCH)
            fs::remove_all(entry.path(), ec);
    }
}

// The string value of "key" in a flat JSON object ("" when absent).
std::string JsonStringField(const std::string& json, std::string_view key) {
    size_t at = json.find("\"" + std::string(key) + "\"");
    if (at == std::string::npos)
        return "";
    size_t open = json.find('"', json.find(':', at));
    size_t close = open == std::string::npos ? open : json.find('"', open + 1);
    return close == std::string::npos ? "" : json.substr(open + 1, close - open - 1);
}

milliseconds Left(Clock::time_point deadline) {
    return std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
}

// Polls `probe` until it says ready, the process exits, or the deadline passes. `probe` describes
// the last answer in `detail` for the error message.
Status WaitUntilReady(ChildProcess& process, const std::string& component, Clock::time_point deadline,
                      milliseconds timeout, const std::function<bool(milliseconds, std::string&)>& probe) {
    std::string detail = "no answer yet";
    for (;;) {
        if (!process.Running()) {
            return UnavailableError(component + " " + process.ExitDescription() + " before it was ready" +
                                    LogTail(process.LogPath()));
        }
        milliseconds left = Left(deadline);
        if (left.count() > 0 && probe(std::clamp(left, milliseconds(200), milliseconds(2000)), detail)) {
            return OkStatus();
        }
        if (Left(deadline).count() <= 0) {
            return TimeoutError(component + " was not ready within " + std::to_string(timeout.count()) +
                                " ms (last probe: " + detail + ")" + LogTail(process.LogPath()));
        }
        std::this_thread::sleep_for(std::min(milliseconds(100), std::max(Left(deadline), milliseconds(1))));
    }
}

// One GET for a readiness probe: true on HTTP 200 (and `must_contain` in the body).
bool ProbeOk(const std::string& url, const internal::TlsFiles& tls, milliseconds timeout, std::string_view must_contain,
             std::string& detail) {
    auto answer = internal::HttpGet(url, tls, timeout);
    if (!answer.Ok()) {
        detail = answer.GetStatus().Message();
        return false;
    }
    std::string body = answer->body.substr(0, 1500);
    std::replace(body.begin(), body.end(), '\n', ' ');
    detail = url + ": HTTP " + std::to_string(answer->http_code) + ": " + body;
    return answer->http_code == 200 && answer->body.find(must_contain) != std::string::npos;
}

bool MentionsPortInUse(const ChildProcess& process) {
    return TailOfFile(process.LogPath(), kLogTailLines).find("address already in use") != std::string::npos;
}

}  // namespace

ControlPlane::ControlPlane() : ControlPlane(Options{}) {}

ControlPlane::ControlPlane(Options options) : options_(std::move(options)) {}

ControlPlane::~ControlPlane() {
    Stop();
}

const std::string& ControlPlane::CaFile() const {
    static const std::string kNone;
    return pki_ ? pki_->CaCert() : kNone;
}

bool ControlPlane::Running() const {
    return running_;
}

Status ControlPlane::Start() {
    if (running_)
        return AlreadyExistsError("the control plane already runs at " + host_);
    Status status = StartComponents();
    if (!status.Ok()) {
        StopProcesses();
        if (!work_dir_.empty())
            ReleaseWorkDir(/*keep=*/true);
        return status.Annotate(work_dir_.empty() ? "starting the local control plane"
                                                 : "starting the local control plane (work dir " + work_dir_ + ")");
    }
    running_ = true;
    return OkStatus();
}

Status ControlPlane::StartComponents() {
    for (const auto& user : options_.token_users) {
        if (!tokens_.contains(user.name))
            CTRL_RETURN_IF_ERROR(AddTokenUser(user.name, user.groups).GetStatus());
    }
    CTRL_RETURN_IF_ERROR(ResolveBinaries());
    CTRL_RETURN_IF_ERROR(PrepareWorkDir());
    auto began = Clock::now();
    auto deadline = began + options_.start_timeout;
    CTRL_RETURN_IF_ERROR(CreatePki());
    CTRL_RETURN_IF_ERROR(WriteTokenFile());
    for (int attempt = 1;; ++attempt) {
        bool port_conflict = false;
        Status launched = LaunchOnce(deadline, port_conflict);
        if (launched.Ok())
            break;
        if (!port_conflict || attempt == kLaunchAttempts)
            return launched;
        std::cerr << "control plane: a port was taken meanwhile; starting again on other ports\n";
        StopProcesses();
        std::error_code ignored;
        fs::remove_all(work_dir_ + "/etcd", ignored);
    }
    CTRL_RETURN_IF_ERROR(ReadVersions());
    kubeconfig_ = work_dir_ + "/kubeconfig";
    CTRL_RETURN_IF_ERROR(WriteKubeconfig(kubeconfig_, {.server = host_,
                                                       .ca_file = pki_->CaCert(),
                                                       .user = "admin",
                                                       .client_cert_file = admin_.cert,
                                                       .client_key_file = admin_.key}));
    startup_duration_ = std::chrono::duration_cast<milliseconds>(Clock::now() - began);
    return OkStatus();
}

Status ControlPlane::ResolveBinaries() {
    CTRL_ASSIGN_OR_RETURN(binary_dir_,
                          ResolveBinaryDir(options_.binary_dir, options_.setup_command, options_.setup_timeout));
    // The readiness probes use curl: without it, fail now rather than at the start timeout.
    auto curl = RunCommand({.argv = {"curl", "--version"}, .timeout = std::chrono::seconds(10)});
    if (!curl.Ok() || curl->exit_code != 0) {
        return NotFoundError("the control plane needs curl in $PATH for its readiness probes");
    }
    return OkStatus();
}

Status ControlPlane::PrepareWorkDir() {
    std::error_code ec;
    if (options_.work_dir.empty()) {
        const char* tmp = std::getenv("TMPDIR");
        fs::path base = tmp && *tmp ? tmp : "/tmp";
        RemoveStaleWorkDirs(base);
        std::string pattern = (base / kTempPrefix).string() + "XXXXXX";
        if (mkdtemp(pattern.data()) == nullptr) {
            return InternalError("creating a directory like " + pattern + ": " + std::strerror(errno));
        }
        work_dir_ = pattern;
        owns_work_dir_ = true;
        std::ofstream(work_dir_ + "/" + kOwnerFile) << getpid() << "\n";
        if (!EnvSet(kKeepEnv))
            RemoveOnTermination(work_dir_);
    } else {
        work_dir_ = fs::absolute(options_.work_dir).lexically_normal().string();
        while (work_dir_.size() > 1 && work_dir_.back() == '/')
            work_dir_.pop_back();
        owns_work_dir_ = false;
        fs::create_directories(work_dir_, ec);
        fs::remove_all(work_dir_ + "/etcd", ec);
        fs::remove(work_dir_ + "/kubeconfig", ec);
    }
    for (const char* sub : {"pki", "logs", "users"}) {
        if (!fs::create_directories(work_dir_ + "/" + sub, ec) && ec) {
            return InternalError("creating " + work_dir_ + "/" + sub + ": " + ec.message());
        }
    }
    return OkStatus();
}

Status ControlPlane::CreatePki() {
    CTRL_ASSIGN_OR_RETURN(Pki pki, Pki::Create(work_dir_ + "/pki"));
    CTRL_ASSIGN_OR_RETURN(serving_, pki.IssueServing("kube-apiserver", "kube-apiserver"));
    CTRL_ASSIGN_OR_RETURN(admin_, pki.IssueClient("admin", "admin", {"system:masters"}));
    CTRL_ASSIGN_OR_RETURN(service_account_, pki.CreateKeyPair("service-account"));
    std::lock_guard lock(mu_);
    pki_ = std::move(pki);
    return OkStatus();
}

Status ControlPlane::LaunchOnce(Clock::time_point deadline, bool& port_conflict) {
    CTRL_ASSIGN_OR_RETURN(std::vector<int> ports, FreePorts(3));
    etcd_url_ = "http://127.0.0.1:" + std::to_string(ports[0]);
    std::string peer_url = "http://127.0.0.1:" + std::to_string(ports[1]);
    host_ = "https://127.0.0.1:" + std::to_string(ports[2]);

    std::vector<std::string> etcd_argv = {
        binary_dir_ + "/etcd",
        "--name=ctrl-envtest",
        "--data-dir=" + work_dir_ + "/etcd",
        "--listen-client-urls=" + etcd_url_,
        "--advertise-client-urls=" + etcd_url_,
        "--listen-peer-urls=" + peer_url,
        "--initial-advertise-peer-urls=" + peer_url,
        "--initial-cluster=ctrl-envtest=" + peer_url,
        "--unsafe-no-fsync",
        "--quota-backend-bytes=" + std::to_string(options_.etcd_quota_bytes),
        "--log-level=warn",
    };
    etcd_argv_ = etcd_argv;
    CTRL_ASSIGN_OR_RETURN(etcd_, ChildProcess::Start(etcd_argv, work_dir_ + "/logs/etcd.log"));
    Status status = WaitForEtcd(deadline);
    if (!status.Ok()) {
        port_conflict = !etcd_.Running() && MentionsPortInUse(etcd_);
        return status;
    }

    const std::string pki = work_dir_ + "/pki";
    std::vector<std::string> apiserver_argv = {
        binary_dir_ + "/kube-apiserver",
        "--etcd-servers=" + etcd_url_,
        "--bind-address=127.0.0.1",
        "--secure-port=" + std::to_string(ports[2]),
        "--advertise-address=127.0.0.1",
        // kube-apiserver >= 1.37 refuses a loopback advertise address for the endpoint reconciler of the
        // `kubernetes` Service; nothing here needs its endpoints.
        "--endpoint-reconciler-type=none",
        "--cert-dir=" + pki,
        "--tls-cert-file=" + serving_.cert,
        "--tls-private-key-file=" + serving_.key,
        "--client-ca-file=" + pki_->CaCert(),
        "--authorization-mode=RBAC",
        "--token-auth-file=" + work_dir_ + "/tokens.csv",
        "--service-account-issuer=" + host_,
        "--service-account-key-file=" + service_account_.cert,
        "--service-account-signing-key-file=" + service_account_.key,
        "--service-cluster-ip-range=10.0.0.0/24",
        "--allow-privileged=true",
        "--disable-admission-plugins=ServiceAccount",
    };
    apiserver_argv.insert(apiserver_argv.end(), options_.apiserver_flags.begin(), options_.apiserver_flags.end());
    apiserver_argv_ = apiserver_argv;
    CTRL_ASSIGN_OR_RETURN(apiserver_, ChildProcess::Start(apiserver_argv, work_dir_ + "/logs/kube-apiserver.log"));
    status = WaitForApiserver(deadline);
    if (!status.Ok())
        port_conflict = !apiserver_.Running() && MentionsPortInUse(apiserver_);
    return status;
}

Status ControlPlane::WaitForEtcd(Clock::time_point deadline) {
    return WaitUntilReady(etcd_, "etcd", deadline, options_.start_timeout,
                          [&](milliseconds timeout, std::string& detail) {
                              return ProbeOk(etcd_url_ + "/health", {}, timeout, "\"health\":\"true\"", detail);
                          });
}

Status ControlPlane::WaitForApiserver(Clock::time_point deadline) {
    internal::TlsFiles tls{.ca = pki_->CaCert(), .cert = admin_.cert, .key = admin_.key};
    bool ready = false;
    return WaitUntilReady(apiserver_, "kube-apiserver", deadline, options_.start_timeout,
                          [&](milliseconds timeout, std::string& detail) {
                              if (!ready)
                                  ready = ProbeOk(host_ + "/readyz", tls, timeout, "ok", detail);
                              return ready && ProbeOk(host_ + "/api/v1/namespaces/default", tls, timeout, "", detail);
                          });
}

Status ControlPlane::ReadVersions() {
    internal::TlsFiles tls{.ca = pki_->CaCert(), .cert = admin_.cert, .key = admin_.key};
    CTRL_ASSIGN_OR_RETURN(auto apiserver, internal::HttpGet(host_ + "/version", tls, std::chrono::seconds(10)));
    version_ = JsonStringField(apiserver.body, "gitVersion");
    if (apiserver.http_code != 200 || version_.empty()) {
        return InternalError("kube-apiserver /version answered HTTP " + std::to_string(apiserver.http_code) + ": " +
                             apiserver.body);
    }
    CTRL_ASSIGN_OR_RETURN(auto etcd, internal::HttpGet(etcd_url_ + "/version", {}, std::chrono::seconds(10)));
    etcd_version_ = JsonStringField(etcd.body, "etcdserver");
    if (!etcd_version_.empty() && etcd_version_[0] != 'v')
        etcd_version_ = "v" + etcd_version_;
    return OkStatus();
}

void ControlPlane::Stop() {
    StopProcesses();
    running_ = false;
    if (!work_dir_.empty())
        ReleaseWorkDir(EnvSet(kKeepEnv));
}

void ControlPlane::StopProcesses() {
    // The apiserver first: it is etcd's only client, and stops cleanly while etcd still answers.
    apiserver_.Stop(options_.stop_grace);
    etcd_.Stop(options_.stop_grace);
}

void ControlPlane::ReleaseWorkDir(bool keep) {
    if (!owns_work_dir_)
        return;
    owns_work_dir_ = false;
    ForgetOnTermination(work_dir_);
    std::error_code ec;
    if (keep) {
        fs::remove(work_dir_ + "/" + kOwnerFile, ec);
        std::cerr << "control plane: work dir kept at " << work_dir_ << "\n";
        return;
    }
    fs::remove_all(work_dir_, ec);
}

}  // namespace ctrl::envtest
