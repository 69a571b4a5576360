#include "ctrl/envtest/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <fstream>
#include <utility>

#include "ctrl/envtest/internal/spawn.hpp"

namespace ctrl::envtest {

StatusOr<ChildProcess> ChildProcess::Start(const std::vector<std::string>& argv, const std::string& log_path) {
    int log_fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log_fd < 0)
        return InternalError("opening " + log_path + ": " + std::strerror(errno));
    int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    auto pid = internal::Spawn(argv, {}, {.in = null_fd, .out = log_fd, .err = log_fd});
    close(log_fd);
    if (null_fd >= 0)
        close(null_fd);
    if (!pid.Ok())
        return pid.GetStatus();
    ChildProcess child;
    child.pid_ = *pid;
    child.log_path_ = log_path;
    return child;
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, 0)),
      log_path_(std::move(other.log_path_)),
      exit_description_(std::move(other.exit_description_)) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
    if (this != &other) {
        Stop(std::chrono::seconds(10));
        pid_ = std::exchange(other.pid_, 0);
        log_path_ = std::move(other.log_path_);
        exit_description_ = std::move(other.exit_description_);
    }
    return *this;
}

ChildProcess::~ChildProcess() {
    Stop(std::chrono::seconds(10));
}

void ChildProcess::Reaped(int wait_status) {
    exit_description_ = wait_status < 0 ? "reaped by a signal teardown" : internal::DescribeWaitStatus(wait_status);
    pid_ = 0;
}

bool ChildProcess::Running() {
    if (pid_ == 0)
        return false;
    auto state = internal::Peek(pid_);
    if (state == internal::ChildState::kRunning)
        return true;
    if (state == internal::ChildState::kGone) {
        internal::UnregisterChild(pid_);
        Reaped(-1);
    } else {
        Reaped(internal::KillGroupAndReap(pid_));
    }
    return false;
}

bool ChildProcess::WaitForExit(std::chrono::steady_clock::time_point deadline) {
    if (pid_ != 0)
        (void)internal::WaitForExit(pid_, deadline);
    return !Running();
}

std::string ChildProcess::Stop(std::chrono::milliseconds grace) {
    if (!Running())
        return exit_description_;
    kill(-pid_, SIGTERM);
    if (!WaitForExit(std::chrono::steady_clock::now() + grace)) {
        Reaped(internal::KillGroupAndReap(pid_));
        exit_description_ += " (SIGKILL after " + std::to_string(grace.count()) + " ms of SIGTERM)";
    }
    return exit_description_;
}

std::string TailOfFile(const std::string& path, int max_lines) {
    std::ifstream in(path);
    if (!in)
        return "";
    std::deque<std::string> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (line.size() > 2000)
            line = line.substr(0, 2000) + "...";
        lines.push_back(std::move(line));
        if (static_cast<int>(lines.size()) > max_lines)
            lines.pop_front();
    }
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
}

}  // namespace ctrl::envtest
