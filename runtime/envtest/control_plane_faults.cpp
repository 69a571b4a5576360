// ControlPlane's faults for the e2e fault suite: SIGKILL and restart of kube-apiserver or etcd on the
// same ports and data, and etcd compaction through its JSON gateway (curl).

#include <signal.h>

#include <chrono>

#include "ctrl/envtest/command.hpp"
#include "ctrl/envtest/control_plane.hpp"

namespace ctrl::envtest {
namespace {

using Clock = std::chrono::steady_clock;

// SIGKILLs the child's process group and reaps it (within 10 s).
Status KillNow(ChildProcess& process, const std::string& component) {
    if (!process.Running())
        return UnavailableError(component + " is not running: " + process.ExitDescription());
    kill(-process.Pid(), SIGKILL);
    if (!process.WaitForExit(Clock::now() + std::chrono::seconds(10)))
        return TimeoutError(component + " survived SIGKILL for 10 s");
    return OkStatus();
}

// POSTs a JSON body to etcd's v3 gateway and returns the answer.
StatusOr<std::string> EtcdPost(const std::string& endpoint, const std::string& path, const std::string& body) {
    CTRL_ASSIGN_OR_RETURN(
        CommandResult result,
        RunCommand({.argv = {"curl", "-sS", "--max-time", "10", "-X", "POST", endpoint + path, "-d", body},
                    .timeout = std::chrono::seconds(15)}));
    if (result.exit_code != 0)
        return UnavailableError("POST " + endpoint + path + ": curl exit " + std::to_string(result.exit_code) + ": " +
                                result.err);
    if (result.out.find("\"error\"") != std::string::npos || result.out.find("\"code\"") != std::string::npos)
        return InternalError("POST " + endpoint + path + " answered " + result.out);
    return result.out;
}

}  // namespace

Status ControlPlane::KillAndRestartApiserver() {
    CTRL_RETURN_IF_ERROR(KillNow(apiserver_, "kube-apiserver"));
    CTRL_ASSIGN_OR_RETURN(apiserver_, ChildProcess::Start(apiserver_argv_, work_dir_ + "/logs/kube-apiserver.log"));
    return WaitForApiserver(Clock::now() + options_.start_timeout).Annotate("restarting kube-apiserver");
}

Status ControlPlane::KillAndRestartEtcd() {
    CTRL_RETURN_IF_ERROR(KillNow(etcd_, "etcd"));
    CTRL_ASSIGN_OR_RETURN(etcd_, ChildProcess::Start(etcd_argv_, work_dir_ + "/logs/etcd.log"));
    const auto deadline = Clock::now() + options_.start_timeout;
    CTRL_RETURN_IF_ERROR(WaitForEtcd(deadline).Annotate("restarting etcd"));
    return WaitForApiserver(deadline).Annotate("kube-apiserver after etcd restarted");
}

StatusOr<int64_t> ControlPlane::EtcdRevision() const {
    // A range over the empty key: only the header matters.
    CTRL_ASSIGN_OR_RETURN(std::string answer, EtcdPost(etcd_url_, "/v3/kv/range", R"({"key":"AA==","limit":1})"));
    const size_t at = answer.find("\"revision\":\"");
    if (at == std::string::npos)
        return InternalError("etcd range answered without a revision: " + answer);
    return std::stoll(answer.substr(at + 12));
}

Status ControlPlane::CompactEtcd(int64_t revision) const {
    return EtcdPost(etcd_url_, "/v3/kv/compaction",
                    R"({"revision":")" + std::to_string(revision) + R"(","physical":true})")
        .GetStatus();
}

}  // namespace ctrl::envtest
