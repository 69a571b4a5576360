#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "ctrl/core/status_or.hpp"
#include "test/support/fake_response.hpp"

namespace ctrl::testing {

// A scripted HTTP(S) server standing in for kube-apiserver where the real one cannot be driven
// into a fault (docs/decisions.md, decision 8): dropped and stalled streams, 429 storms, malformed or
// non-Status bodies, slow bodies, connections closed without an answer. It never replaces the
// real control plane for a capability.
//
// It listens on 127.0.0.1 on a port the kernel picks, serves on its own thread (one io_context),
// and answers each request with the script of the latest matching route (see FakeRoute,
// FakeResponse); a request no route matches gets a 404 Status. It records every request and
// counts connections, for assertions. All methods are thread-safe.
//
//   auto server = FakeApiServer::Start();
//   server.Value()->Handle({.method = "GET", .path = "/api/v1/pods"},
//                          {FakeResponse::TooManyRequests(1), FakeResponse::TooManyRequests(1),
//                           FakeResponse::Json(200, R"({"kind":"PodList","items":[]})")});
//   server.Value()->Handle({.method = "GET", .path = "/api/v1/watch/", .prefix = true},
//                          {FakeResponse::Stream({{.data = R"({"type":"ADDED","obj)"},
//                                                 {.delay = 50ms, .data = "ect\":{}}\n"}},
//                                                FakeEnd::kDrop)});
//   ... point a transport at server.Value()->Url() ...
//   EXPECT_EQ(server.Value()->Requests().size(), 3);
class FakeApiServer final {
  public:
    struct Options {
        // Serve HTTPS with a certificate for 127.0.0.1 and localhost signed by a throw-away CA
        // (CaPem, CaFile), made with the openssl CLI. Default: plain HTTP.
        bool tls = false;
    };

    // Listens and starts serving. Unavailable when it cannot listen; TLS setup failures say why.
    static StatusOr<std::unique_ptr<FakeApiServer>> Start(Options options);
    static StatusOr<std::unique_ptr<FakeApiServer>> Start();
    FakeApiServer(const FakeApiServer&) = delete;
    FakeApiServer& operator=(const FakeApiServer&) = delete;
    // Stops it.
    ~FakeApiServer();

    // Stops at once: the listener and every connection close (clients see the connection drop),
    // pending delays are abandoned, the thread is joined. Idempotent; the records stay readable.
    void Stop();

    const std::string& Url() const;  // "http://127.0.0.1:<port>" or "https://..."
    int Port() const;
    const std::string& CaPem() const;   // TLS only: the CA that signed the serving certificate
    const std::string& CaFile() const;  // the same, as a file (removed by Stop)

    // Answers requests matching `route` with `responses` in turn, the last one repeating. A later
    // Handle for the same requests takes precedence.
    void Handle(FakeRoute route, std::vector<FakeResponse> responses);
    // Answers requests matching `route` with what `handler` computes (on the server's thread).
    void Handle(FakeRoute route, FakeHandler handler);
    // Forgets every route and record and zeroes the counters.
    void Reset();

    // Every request received so far, in order.
    std::vector<FakeRequest> Requests() const;
    std::size_t RequestCount() const;
    // Waits until at least `count` requests were received; false when `timeout` passed first.
    bool WaitForRequests(std::size_t count, std::chrono::milliseconds timeout) const;
    // TCP connections accepted so far (keep-alive reuse shows as fewer connections than requests).
    int ConnectionsAccepted() const;
    // Body bytes written to clients so far, all connections: a reader that applies backpressure
    // holds this back.
    std::size_t BodyBytesSent() const;

  private:
    struct Impl;
    FakeApiServer();

    std::unique_ptr<Impl> impl_;
};

}  // namespace ctrl::testing
