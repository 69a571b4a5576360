#include "test/bench/bench_process.hpp"

#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ctrl::bench {

Figures RunProbeChild(const char* program, const std::vector<std::string>& args) {
    std::fflush(stdout);
    int out[2];
    if (pipe(out) != 0)
        return {};
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        close(out[0]);
        close(out[1]);
        std::vector<char*> argv{const_cast<char*>(program), const_cast<char*>("--probe")};
        for (const std::string& arg : args)
            argv.push_back(const_cast<char*>(arg.c_str()));
        argv.push_back(nullptr);
        execv("/proc/self/exe", argv.data());
        _exit(127);
    }
    close(out[1]);
    std::string output;
    char buffer[4096];
    for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;)
        output.append(buffer, static_cast<std::size_t>(n));
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "%s: a probe failed (status %d)\n", program, status);
        return {};
    }
    return ParseProbeResult(output);
}

Figures ParseProbeResult(const std::string& output) {
    Figures figures;
    const std::size_t at = output.find("RESULT ");
    if (at == std::string::npos)
        return figures;
    std::istringstream line(output.substr(at + 7, output.find('\n', at) - at - 7));
    std::string pair;
    while (line >> pair) {
        const std::size_t eq = pair.find('=');
        if (eq != std::string::npos)
            figures[pair.substr(0, eq)] = std::atof(pair.c_str() + eq + 1);
    }
    return figures;
}

std::string LoadAverage() {
    std::ifstream file("/proc/loadavg");
    std::string one, five, fifteen;
    file >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

double CpuSeconds() {
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

Memory SettledMemory() {
    malloc_trim(0);
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0;
    std::size_t resident = 0;
    statm >> pages >> resident;
    const struct mallinfo2 info = mallinfo2();
    return {.rss = resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), .heap = info.uordblks + info.hblkhd};
}

double QuantileMs(std::vector<int64_t> values, double p) {
    if (values.empty())
        return 0;
    const std::size_t at =
        std::min(values.size() - 1, static_cast<std::size_t>(p * static_cast<double>(values.size())));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(at), values.end());
    return static_cast<double>(values[at]) / 1e6;
}

std::vector<int> ParseCounts(const std::string& text) {
    std::vector<int> counts;
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        counts.push_back(std::max(1, std::atoi(text.substr(at, comma - at).c_str())));
        at = comma + 1;
    }
    return counts;
}

void WaitUntil(std::chrono::steady_clock::duration timeout, const std::function<bool()>& done) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

double Loop::ThreadCpuSeconds() {
    clockid_t clock{};
    timespec used{};
    if (pthread_getcpuclockid(NativeHandle(), &clock) != 0 || clock_gettime(clock, &used) != 0)
        return 0;
    return static_cast<double>(used.tv_sec) + static_cast<double>(used.tv_nsec) / 1e9;
}

}  // namespace ctrl::bench
