#include "test/fake/server/raw_http_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace ctrl::testing {

RawHttpClient::RawHttpClient(int port, std::chrono::milliseconds timeout) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0)
        return;
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
        close(fd_);
        fd_ = -1;
    }
}

RawHttpClient::~RawHttpClient() {
    if (fd_ >= 0)
        close(fd_);
}

bool RawHttpClient::Send(const std::string& bytes) {
    size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        sent += static_cast<size_t>(n);
    }
    return true;
}

bool RawHttpClient::Fill() {
    char chunk[16384];
    const ssize_t n = recv(fd_, chunk, sizeof(chunk), 0);
    if (n <= 0)
        return false;
    buffer_.append(chunk, static_cast<size_t>(n));
    return true;
}

RawResponse RawHttpClient::Read(bool head_only) {
    RawResponse response;
    size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
        if (!Fill())
            return response;
    }
    const std::string head = buffer_.substr(0, end);
    buffer_.erase(0, end + 4);
    size_t line_end = head.find("\r\n");
    const std::string status_line = head.substr(0, line_end);
    if (status_line.size() >= 12)
        response.status = std::atoi(status_line.substr(9, 3).c_str());
    while (line_end != std::string::npos) {
        const size_t start = line_end + 2;
        line_end = head.find("\r\n", start);
        const std::string line =
            head.substr(start, line_end == std::string::npos ? std::string::npos : line_end - start);
        const size_t colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        std::string name = line.substr(0, colon);
        for (char& c : name)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        std::string value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ')
            value.erase(0, 1);
        response.headers[name] = value;
    }
    if (head_only)
        return response;
    const size_t length = response.headers.contains("content-length")
                              ? static_cast<size_t>(std::atoll(response.headers["content-length"].c_str()))
                              : 0;
    while (buffer_.size() < length) {
        if (!Fill()) {
            response.status = 0;
            return response;
        }
    }
    response.body = buffer_.substr(0, length);
    buffer_.erase(0, length);
    return response;
}

bool RawHttpClient::ClosedByPeer() {
    for (;;) {
        char chunk[4096];
        const ssize_t n = recv(fd_, chunk, sizeof(chunk), 0);
        if (n == 0)
            return true;
        if (n < 0)
            return errno != EAGAIN && errno != EWOULDBLOCK;  // a reset is a close; a timeout is not
    }
}

}  // namespace ctrl::testing
