#include "test/bench/process_stats.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace ctrl::bench {
namespace {

// The value of a "Name:  value ..." line of a /proc status file; 0 when absent.
int64_t StatusField(const std::string& path, std::string_view name) {
    std::ifstream file(path);
    for (std::string line; std::getline(file, line);) {
        if (line.size() > name.size() && line.compare(0, name.size(), name) == 0 && line[name.size()] == ':')
            return std::atoll(line.c_str() + name.size() + 1);
    }
    return 0;
}

// Whether the header block names `name` (any case) with a value containing `value`.
bool HasHeader(std::string_view head, std::string_view name, std::string_view value) {
    for (std::size_t at = 0; at < head.size();) {
        const std::size_t end = std::min(head.find("\r\n", at), head.size());
        const std::string_view line = head.substr(at, end - at);
        if (line.size() > name.size() && line[name.size()] == ':' &&
            std::equal(name.begin(), name.end(), line.begin(),
                       [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
            return line.find(value) != std::string_view::npos;
        at = end + 2;
    }
    return false;
}

}  // namespace

ProcessSnapshot SnapshotProcess() {
    ProcessSnapshot snapshot;
    snapshot.threads = static_cast<int>(StatusField("/proc/self/status", "Threads"));
    snapshot.rss_peak = static_cast<std::size_t>(StatusField("/proc/self/status", "VmHWM")) * 1024;
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0;
    std::size_t resident = 0;
    statm >> pages >> resident;
    snapshot.rss = resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    std::error_code error;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
        const std::string status = task.path().string() + "/status";
        snapshot.context_switches +=
            StatusField(status, "voluntary_ctxt_switches") + StatusField(status, "nonvoluntary_ctxt_switches");
    }
    return snapshot;
}

HttpGetResult HttpGet(int port, const std::string& path, bool accept_gzip) {
    HttpGetResult result;
    const auto start = std::chrono::steady_clock::now();
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return result;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::string response;
    if (connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
        const std::string request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                                    "\r\nConnection: close\r\n" + (accept_gzip ? "Accept-Encoding: gzip\r\n" : "") +
                                    "\r\n";
        if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size())) {
            char buffer[65536];
            for (ssize_t got; (got = recv(fd, buffer, sizeof buffer, 0)) > 0;)
                response.append(buffer, static_cast<std::size_t>(got));
        }
    }
    close(fd);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::size_t head_end = response.find("\r\n\r\n");
    if (head_end == std::string::npos || response.compare(0, 9, "HTTP/1.1 ") != 0)
        return result;
    result.status = std::atoi(response.c_str() + 9);
    const std::string_view head(response.data(), head_end);
    result.gzip = HasHeader(head, "Content-Encoding", "gzip");
    result.body = response.substr(head_end + 4);
    result.body_bytes = result.body.size();
    if (HasHeader(head, "Transfer-Encoding", "chunked"))
        result.status = -result.status;  // not decoded: the sizes would hold the chunks' framing
    return result;
}

int PortOf(const std::string& url) {
    const std::size_t colon = url.rfind(':');
    if (colon == std::string::npos || colon + 1 >= url.size())
        return 0;
    return std::atoi(url.c_str() + colon + 1);
}

}  // namespace ctrl::bench
