#include "ctrl/envtest/termination.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "ctrl/envtest/process.hpp"

namespace ctrl::envtest {
namespace {

constexpr auto kTeardownGrace = std::chrono::seconds(10);

int g_signal_pipe[2] = {-1, -1};
std::atomic<int> g_signals_seen{0};

// State shared by the helper thread and WaitForTerminationSignal.
struct TerminationState {
    std::mutex mu;
    std::condition_variable cv;
    int waiters = 0;
    int received = 0;
    std::set<std::string> dirs;
};

TerminationState& State() {
    static auto* state = new TerminationState();  // never destroyed: the helper thread outlives main
    return *state;
}

void OnSignal(int sig) {
    if (g_signals_seen.fetch_add(1) > 0) {
        KillAllChildrenNow();
        _exit(128 + sig);
    }
    unsigned char byte = static_cast<unsigned char>(sig);
    [[maybe_unused]] ssize_t ignored = write(g_signal_pipe[1], &byte, 1);
}

void TearDownAndReraise(int sig) {
    std::fprintf(stderr, "ctrl: caught signal %d; stopping the local control plane\n", sig);
    TerminateAllChildren(kTeardownGrace);
    std::set<std::string> dirs;
    {
        std::lock_guard lock(State().mu);
        dirs.swap(State().dirs);
    }
    for (const auto& dir : dirs) {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
    }
    std::fflush(nullptr);
    signal(sig, SIG_DFL);
    kill(getpid(), sig);
}

void HelperThread() {
    for (;;) {
        unsigned char byte = 0;
        ssize_t n = read(g_signal_pipe[0], &byte, 1);
        if (n != 1)
            continue;
        int sig = byte;
        {
            std::lock_guard lock(State().mu);
            if (State().waiters > 0) {
                State().received = sig;
                State().cv.notify_all();
                continue;
            }
        }
        TearDownAndReraise(sig);
    }
}

}  // namespace

void InstallTerminationHandler() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (pipe2(g_signal_pipe, O_CLOEXEC) != 0)
            return;
        fcntl(g_signal_pipe[1], F_SETFL, O_NONBLOCK);
        // The helper thread runs with every signal blocked, so handlers run on the other threads.
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        std::thread(HelperThread).detach();
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        struct sigaction action {};
        action.sa_handler = OnSignal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        sigaction(SIGINT, &action, nullptr);
        sigaction(SIGTERM, &action, nullptr);
    });
}

int WaitForTerminationSignal() {
    std::unique_lock lock(State().mu);
    ++State().waiters;
    State().cv.wait(lock, [] { return State().received != 0; });
    --State().waiters;
    return State().received;
}

void RemoveOnTermination(const std::string& dir) {
    std::lock_guard lock(State().mu);
    State().dirs.insert(dir);
}

void ForgetOnTermination(const std::string& dir) {
    std::lock_guard lock(State().mu);
    State().dirs.erase(dir);
}

}  // namespace ctrl::envtest
