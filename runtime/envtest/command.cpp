#include "ctrl/envtest/command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <tuple>

#include "ctrl/envtest/internal/spawn.hpp"

namespace ctrl::envtest {
namespace {

// Closes the descriptors it holds when it goes out of scope.
struct Pipe {
    int read = -1;
    int write = -1;
    ~Pipe() {
        CloseRead();
        CloseWrite();
    }
    void CloseRead() {
        if (read >= 0)
            close(read);
        read = -1;
    }
    void CloseWrite() {
        if (write >= 0)
            close(write);
        write = -1;
    }
};

Status OpenPipe(Pipe& pipe) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return InternalError(std::string("pipe2: ") + std::strerror(errno));
    pipe.read = fds[0];
    pipe.write = fds[1];
    return OkStatus();
}

std::string Joined(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& arg : argv)
        out += (out.empty() ? "" : " ") + arg;
    return out;
}

}  // namespace

StatusOr<CommandResult> RunCommand(const Command& command) {
    Pipe in, out, err;
    CTRL_RETURN_IF_ERROR(OpenPipe(in));
    CTRL_RETURN_IF_ERROR(OpenPipe(out));
    if (!command.inherit_stderr)
        CTRL_RETURN_IF_ERROR(OpenPipe(err));
    auto pid = internal::Spawn(command.argv, command.env, {.in = in.read, .out = out.write, .err = err.write});
    in.CloseRead();
    out.CloseWrite();
    err.CloseWrite();
    if (!pid.Ok())
        return pid.GetStatus();
    fcntl(in.write, F_SETFL, O_NONBLOCK);
    if (command.stdin_data.empty())
        in.CloseWrite();

    CommandResult result;
    size_t written = 0;
    auto deadline = std::chrono::steady_clock::now() + command.timeout;
    bool timed_out = false;
    while (out.read >= 0 || err.read >= 0) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timed_out = true;
            break;
        }
        pollfd fds[3] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}, {in.write, POLLOUT, 0}};
        int n = poll(fds, 3, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
        if (n < 0 && errno != EINTR)
            break;
        if (n <= 0)
            continue;
        char buffer[16384];
        for (auto [index, pipe, sink] : {std::tuple{0, &out, &result.out}, std::tuple{1, &err, &result.err}}) {
            if (!(fds[index].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t got = read(pipe->read, buffer, sizeof(buffer));
            if (got > 0) {
                sink->append(buffer, static_cast<size_t>(got));
            } else if (got == 0 || errno != EINTR) {
                pipe->CloseRead();
            }
        }
        if (fds[2].revents & (POLLOUT | POLLERR | POLLHUP)) {
            ssize_t put = write(in.write, command.stdin_data.data() + written, command.stdin_data.size() - written);
            if (put > 0)
                written += static_cast<size_t>(put);
            if ((put < 0 && errno != EAGAIN && errno != EINTR) || written == command.stdin_data.size()) {
                in.CloseWrite();
            }
        }
    }
    in.CloseWrite();
    // The output is closed; the command itself gets what is left of the deadline to exit.
    if (!timed_out)
        timed_out = internal::WaitForExit(*pid, deadline) == internal::ChildState::kRunning;
    int wait_status = internal::KillGroupAndReap(*pid);
    if (timed_out) {
        return TimeoutError("`" + Joined(command.argv) + "` did not finish within " +
                            std::to_string(command.timeout.count()) + " ms; output so far: " + result.out + result.err);
    }
    result.exit_code = wait_status < 0 ? -1 : internal::ExitCodeOf(wait_status);
    return result;
}

}  // namespace ctrl::envtest
