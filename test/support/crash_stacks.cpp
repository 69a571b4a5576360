// Linked into the integration test binaries: when one crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
// SIGABRT), it prints every thread's stack before dying, so a crash in CI, where nothing but the
// log survives, says where it happened. The stacks come from gdb attached to the dying process
// (symbols, lines and arguments); without gdb, from glibc's backtrace (addresses and symbols).
// Not installed under a sanitizer, which prints its own report; CTRL_TEST_NO_CRASH_STACKS=1 turns
// it off.

#include <execinfo.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
std::atomic<bool> g_crashing{false};
char g_pid_text[16];  // this process's id, written in the handler (a forked child has its own)

// Writes getpid() into g_pid_text without anything a signal handler may not call.
void FormatPid() {
    char digits[16];
    int count = 0;
    for (unsigned value = static_cast<unsigned>(getpid()); value != 0 || count == 0; value /= 10)
        digits[count++] = static_cast<char>('0' + value % 10);
    for (int i = 0; i < count; ++i)
        g_pid_text[i] = digits[count - 1 - i];
    g_pid_text[count] = '\0';
}

void WriteText(const char* text) {
    [[maybe_unused]] ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
}

// Runs gdb on this process and waits for it; false when gdb could not be started.
bool PrintStacksWithGdb() {
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    // The raw system call, not fork(): fork() runs glibc's atfork handlers, which take malloc's
    // locks, and a crash inside malloc (a corrupted heap) holds them.
    const pid_t child = static_cast<pid_t>(syscall(SYS_clone, SIGCHLD, nullptr, nullptr, nullptr, nullptr));
    if (child < 0)
        return false;
    if (child == 0) {
        dup2(STDERR_FILENO, STDOUT_FILENO);
        execlp("gdb", "gdb", "-batch", "-nx", "-p", g_pid_text, "-ex", "info threads", "-ex", "thread apply all bt 40",
               static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
    }
    return WIFEXITED(status) && WEXITSTATUS(status) != 127;
}

void OnCrash(int sig) {
    if (g_crashing.exchange(true)) {
        // Another thread is printing: wait for it to end the process.
        for (;;)
            pause();
    }
    FormatPid();
    WriteText("\nctrl test: fatal signal ");
    WriteText(strsignal(sig));
    WriteText("; every thread's stack follows\n");
    if (!PrintStacksWithGdb()) {
        void* frames[64];
        const int count = backtrace(frames, 64);
        backtrace_symbols_fd(frames, count, STDERR_FILENO);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

bool Install() {
    if (kSanitized)
        return false;
    if (const char* off = std::getenv("CTRL_TEST_NO_CRASH_STACKS"); off != nullptr && std::strcmp(off, "1") == 0)
        return false;
    void* warm[1];
    backtrace(warm, 1);  // loads libgcc now, not inside the handler
    struct sigaction action {};
    action.sa_handler = OnCrash;
    sigemptyset(&action.sa_mask);
    for (int sig : kCrashSignals)
        sigaction(sig, &action, nullptr);
    return true;
}

[[maybe_unused]] const bool g_installed = Install();

}  // namespace
