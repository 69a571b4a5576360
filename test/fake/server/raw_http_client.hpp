#pragma once

#include <chrono>
#include <map>
#include <string>

namespace ctrl::testing {

// One response as read off the wire.
struct RawResponse {
    int status = 0;                              // 0 when the connection closed before a status line
    std::map<std::string, std::string> headers;  // names lower-cased
    std::string body;
};

// A blocking HTTP/1.1 client over one loopback TCP connection that sends exactly the bytes it is
// given (to play bad clients). Every read waits at most `timeout`.
class RawHttpClient {
  public:
    RawHttpClient(int port, std::chrono::milliseconds timeout = std::chrono::seconds(10));
    ~RawHttpClient();
    RawHttpClient(const RawHttpClient&) = delete;
    RawHttpClient& operator=(const RawHttpClient&) = delete;

    bool Connected() const { return fd_ >= 0; }
    // False once the peer has closed or reset the connection.
    bool Send(const std::string& bytes);
    // Reads one response (Content-Length framed; for HEAD pass head_only). status 0 when the
    // server closed the connection first or the read timed out.
    RawResponse Read(bool head_only = false);
    // Whether the server closed the connection (a read returns end-of-file or an error) within
    // the timeout, reading and dropping whatever arrives first.
    bool ClosedByPeer();

  private:
    bool Fill();  // reads more into buffer_; false on close, error or timeout

    int fd_ = -1;
    std::string buffer_;
};

}  // namespace ctrl::testing
