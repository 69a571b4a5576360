#pragma once

#include <memory>
#include <string>

#include "ctrl/core/status_or.hpp"

namespace ctrl::testing {

// A TCP proxy on 127.0.0.1 (a port the kernel picks) that forwards every connection to one upstream
// address, byte for byte (TLS passes through end to end), so a test can cut a client's connections
// to the real API server at will: all at once (CutAll, repeatedly during churn), or by refusing new
// ones for a while (SetRefusing). Serves on its own thread; all methods are thread-safe.
//
//   auto proxy = TcpProxy::Start("127.0.0.1", api_port);
//   config.host = "https://127.0.0.1:" + std::to_string(proxy.Value()->Port());
//   ... proxy.Value()->CutAll();
class TcpProxy final {
  public:
    // Listens and starts forwarding to upstream_host:upstream_port. Unavailable when it cannot listen.
    static StatusOr<std::unique_ptr<TcpProxy>> Start(std::string upstream_host, int upstream_port);
    TcpProxy(const TcpProxy&) = delete;
    TcpProxy& operator=(const TcpProxy&) = delete;
    // Stops it.
    ~TcpProxy();

    // Closes the listener and every connection, and joins the thread. Idempotent.
    void Stop();

    int Port() const;
    // Closes every open connection, both sides, at once; returns how many there were.
    int CutAll();
    // While refusing, a new connection is accepted and closed at once (the client sees a reset).
    void SetRefusing(bool refusing);

    // Connections accepted so far (refused ones included), and open now.
    int Accepted() const;
    int Open() const;

  private:
    struct Impl;
    explicit TcpProxy(std::unique_ptr<Impl> impl);

    std::unique_ptr<Impl> impl_;
};

}  // namespace ctrl::testing
