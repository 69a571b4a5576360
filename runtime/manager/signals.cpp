#include "ctrl/manager/signals.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <mutex>
#include <optional>
#include <thread>

#include "ctrl/log/log.hpp"

namespace ctrl::manager {
namespace {

int wake_pipe[2] = {-1, -1};
std::atomic<int> signals_seen{0};

extern "C" void OnShutdownSignal(int signal_number) {
    if (signals_seen.fetch_add(1) >= 1)
        _exit(1);  // a second signal: exit at once
    const unsigned char byte = static_cast<unsigned char>(signal_number);
    const int saved = errno;
    (void)!write(wake_pipe[1], &byte, 1);
    errno = saved;
}

}  // namespace

Context SetupSignalHandler() {
    static std::once_flag once;
    static std::optional<Context> ctx;
    std::call_once(once, [] {
        ctx = Context::WithCancel(Context::Background());
        if (pipe2(wake_pipe, O_CLOEXEC) != 0) {
            log::Logger().WithName("manager").Error(InternalError("pipe2 failed"),
                                                    "Cannot watch for signals; SIGTERM ends the process at once");
            return;
        }
        struct sigaction action {};
        action.sa_handler = OnShutdownSignal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        sigaction(SIGTERM, &action, nullptr);
        sigaction(SIGINT, &action, nullptr);
        std::thread([watched = *ctx] {
            unsigned char byte = 0;
            while (read(wake_pipe[0], &byte, 1) < 0 && errno == EINTR) {
            }
            log::Logger().WithName("manager").Info(
                "Received a shutdown signal; shutting down gracefully (a second "
                "signal exits at once)",
                "signal", byte == SIGINT ? "SIGINT" : "SIGTERM");
            watched.Cancel(CancelledError(byte == SIGINT ? "SIGINT received" : "SIGTERM received"));
        }).detach();
    });
    return *ctx;
}

}  // namespace ctrl::manager
