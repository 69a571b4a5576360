#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "ctrl/core/status_or.hpp"

namespace ctrl::testing {

// An HTTPS reverse proxy in front of a real kube-apiserver that injects HTTP faults: each request,
// with the probabilities of the current FaultMix (seeded, so a run can be replayed), is answered by
// the proxy itself with a 429 (Retry-After) or a 503 Status, with a malformed body (a 200 whose JSON
// breaks off; for a watch, a stream whose event is not JSON, then a dropped connection), or is
// forwarded and its response cut off after a random number of bytes (a truncated body, mid-stream
// for a watch); otherwise it is forwarded untouched. It terminates TLS with a serving certificate
// the client already trusts (the control plane's) and opens one TLS connection upstream per request
// (forwarded as `Connection: close`), so a watch is relayed as it streams. Requests whose path
// contains `exempt_path` (e.g. the operator's Lease) are always forwarded untouched. Serves on its
// own thread; all methods are thread-safe.
class FaultHttpProxy final {
  public:
    struct Options {
        std::string upstream_host = "127.0.0.1";
        int upstream_port = 0;
        std::string upstream_ca_file{};   // verifies the upstream's certificate
        std::string serving_cert_file{};  // the proxy's own certificate and key, for 127.0.0.1
        std::string serving_key_file{};
        std::string exempt_path{};
        uint32_t seed = 1;
    };
    // Probabilities per request (their sum at most 1); all 0 forwards everything.
    struct FaultMix {
        double too_many_requests = 0;
        double unavailable = 0;
        double malformed = 0;
        double truncated = 0;
    };
    // What it did so far.
    struct Counts {
        int requests = 0;
        int forwarded = 0;  // untouched
        int too_many_requests = 0;
        int unavailable = 0;
        int malformed = 0;
        int truncated = 0;
    };

    static StatusOr<std::unique_ptr<FaultHttpProxy>> Start(Options options);
    FaultHttpProxy(const FaultHttpProxy&) = delete;
    FaultHttpProxy& operator=(const FaultHttpProxy&) = delete;
    // Stops it: every connection closes.
    ~FaultHttpProxy();

    int Port() const;
    std::string Url() const { return "https://127.0.0.1:" + std::to_string(Port()); }
    void SetFaults(FaultMix mix);
    Counts Totals() const;

  private:
    struct Impl;
    explicit FaultHttpProxy(std::unique_ptr<Impl> impl);

    std::unique_ptr<Impl> impl_;
};

}  // namespace ctrl::testing
