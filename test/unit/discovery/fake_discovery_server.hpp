#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ctrl/discovery/api_resource.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::discovery::test {

// An in-memory API server that serves discovery documents (legacy and aggregated) rendered
// from a model the test edits while lookups run, and counts every request by path. Faults: a
// status for the next N requests to a path, or a connection failure. Thread-safe.
class FakeDiscoveryServer {
  public:
    FakeDiscoveryServer();

    // Adds a served resource (kind, plural, scope) to a group version; versions of a group are
    // listed in the order added unless SetPreferred says otherwise.
    void AddResource(const GroupVersion& gv, const std::string& kind, const std::string& plural, bool namespaced);
    void RemoveResource(const GroupVersion& gv, const std::string& plural);
    void RemoveVersion(const GroupVersion& gv);
    void SetPreferred(const std::string& group, const std::string& version);
    void MarkStale(const GroupVersion& gv, bool stale);
    // Whether to answer the aggregated Accept with aggregated documents (a server >= 1.27).
    void SetAggregatedSupported(bool supported);
    // Every answer waits this long on a timer first (to make concurrent lookups overlap).
    void SetLatency(std::chrono::milliseconds latency);
    std::chrono::milliseconds Latency() const;
    // The next `times` requests to path answer with http_status (a 503, say).
    void FailNext(const std::string& path, int http_status, int times = 1);
    // The next `times` requests to path fail as if the connection dropped.
    void DropNext(const std::string& path, int times = 1);

    int Count(const std::string& path) const;
    int Total() const;
    void ResetCounts();
    std::vector<std::string> Requests() const;

    // A Transport answering from this server; the server must outlive it.
    std::unique_ptr<rest::Transport> MakeTransport();

    rest::HttpResponse Answer(const rest::HttpRequest& request, Status& transport_error);

  private:
    struct Version {
        std::vector<APIResource> resources;
        bool stale = false;
    };
    struct Group {
        std::vector<std::string> order;  // preferred first
        std::map<std::string, Version> versions;
    };
    std::string RenderApiVersionsLocked() const;
    std::string RenderGroupListLocked() const;
    std::string RenderResourceListLocked(const GroupVersion& gv) const;
    std::string RenderAggregatedLocked(bool core) const;

    mutable std::mutex mu_;
    std::map<std::string, Group> groups_;
    bool aggregated_supported_ = true;
    std::chrono::milliseconds latency_{0};
    std::map<std::string, std::pair<int, int>> failures_;  // path -> (status, times)
    std::map<std::string, int> drops_;
    std::map<std::string, int> counts_;
    std::vector<std::string> requests_;
};

}  // namespace ctrl::discovery::test
