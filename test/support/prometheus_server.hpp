#pragma once

// A real Prometheus (Debian's `prometheus`) started by a test with its storage in a temporary
// directory, and curl for reading HTTP(S) endpoints: what a user's monitoring does to /metrics.

#include <string>

#include "ctrl/core/status.hpp"
#include "test/support/process.hpp"

namespace ctrl::testing {

// curl's answer: the status code (0 when curl failed), then the body.
struct CurlResult {
    int status = 0;
    std::string body;
};

// GET url with curl (-k: any certificate), with a bearer token when given.
CurlResult Curl(const std::string& url, const std::string& token = "");

// How often what occurs in text.
int Occurrences(const std::string& text, const std::string& what);

// A Prometheus server on a free loopback port, scraping every second; stopped and its directory
// removed when destroyed.
class PrometheusServer {
  public:
    PrometheusServer() = default;
    ~PrometheusServer();
    PrometheusServer(const PrometheusServer&) = delete;
    PrometheusServer& operator=(const PrometheusServer&) = delete;

    // Starts it with the given `scrape_configs:` entries (YAML, indented by two spaces).
    Status Start(const std::string& scrape_configs);
    // The body of GET <prometheus>/<path> ("/api/v1/targets?state=active").
    std::string Api(const std::string& path) const;
    // The end of its log, for failure messages.
    std::string Log() const;

  private:
    std::string dir_;
    std::string url_;
    ChildProcess process_;
};

}  // namespace ctrl::testing
