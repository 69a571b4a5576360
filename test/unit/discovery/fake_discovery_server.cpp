#include "test/unit/discovery/fake_discovery_server.hpp"

#include <algorithm>
#include <cctype>

#include "ctrl/core/sleep.hpp"

namespace ctrl::discovery::test {
namespace {

std::string Quote(const std::string& s) {
    return "\"" + s + "\"";
}

std::string Lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string GroupVersionString(const std::string& group, const std::string& version) {
    return group.empty() ? version : group + "/" + version;
}

// Answers from the FakeDiscoveryServer, as a real transport answers from the network.
class FakeTransport final : public rest::Transport {
  public:
    explicit FakeTransport(FakeDiscoveryServer& server) : server_(server) {}

    Task<StatusOr<rest::HttpResponse>> Send(Context ctx, rest::HttpRequest request) override {
        if (Status err = ctx.Err(); !err.Ok())
            co_return err;
        if (server_.Latency().count() > 0) {
            if (Status slept = co_await SleepFor(ctx, server_.Latency()); !slept.Ok())
                co_return slept;
        }
        Status transport_error;
        rest::HttpResponse response = server_.Answer(request, transport_error);
        if (!transport_error.Ok())
            co_return transport_error;
        co_return response;
    }
    Task<StatusOr<std::unique_ptr<rest::BodyStream>>> Open(Context, rest::HttpRequest) override {
        co_return InternalError("the fake discovery server does not stream");
    }

  private:
    FakeDiscoveryServer& server_;
};

}  // namespace

FakeDiscoveryServer::FakeDiscoveryServer() = default;

void FakeDiscoveryServer::AddResource(const GroupVersion& gv, const std::string& kind, const std::string& plural,
                                      bool namespaced) {
    std::lock_guard lock(mu_);
    Group& group = groups_[gv.group];
    if (std::find(group.order.begin(), group.order.end(), gv.version) == group.order.end()) {
        group.order.push_back(gv.version);
    }
    APIResource resource;
    resource.name = plural;
    resource.singular_name = Lower(kind);
    resource.namespaced = namespaced;
    resource.kind = kind;
    resource.verbs = {"get", "list", "watch", "create", "update", "patch", "delete"};
    group.versions[gv.version].resources.push_back(resource);
}

void FakeDiscoveryServer::RemoveResource(const GroupVersion& gv, const std::string& plural) {
    std::lock_guard lock(mu_);
    auto& resources = groups_[gv.group].versions[gv.version].resources;
    std::erase_if(resources, [&](const APIResource& r) { return r.name == plural; });
}

void FakeDiscoveryServer::RemoveVersion(const GroupVersion& gv) {
    std::lock_guard lock(mu_);
    auto it = groups_.find(gv.group);
    if (it == groups_.end())
        return;
    it->second.versions.erase(gv.version);
    std::erase(it->second.order, gv.version);
    if (it->second.order.empty())
        groups_.erase(it);
}

void FakeDiscoveryServer::SetPreferred(const std::string& group, const std::string& version) {
    std::lock_guard lock(mu_);
    auto& order = groups_[group].order;
    std::erase(order, version);
    order.insert(order.begin(), version);
}

void FakeDiscoveryServer::MarkStale(const GroupVersion& gv, bool stale) {
    std::lock_guard lock(mu_);
    groups_[gv.group].versions[gv.version].stale = stale;
}

void FakeDiscoveryServer::SetAggregatedSupported(bool supported) {
    std::lock_guard lock(mu_);
    aggregated_supported_ = supported;
}

void FakeDiscoveryServer::SetLatency(std::chrono::milliseconds latency) {
    std::lock_guard lock(mu_);
    latency_ = latency;
}

std::chrono::milliseconds FakeDiscoveryServer::Latency() const {
    std::lock_guard lock(mu_);
    return latency_;
}

void FakeDiscoveryServer::FailNext(const std::string& path, int http_status, int times) {
    std::lock_guard lock(mu_);
    failures_[path] = {http_status, times};
}

void FakeDiscoveryServer::DropNext(const std::string& path, int times) {
    std::lock_guard lock(mu_);
    drops_[path] = times;
}

int FakeDiscoveryServer::Count(const std::string& path) const {
    std::lock_guard lock(mu_);
    auto it = counts_.find(path);
    return it == counts_.end() ? 0 : it->second;
}

int FakeDiscoveryServer::Total() const {
    std::lock_guard lock(mu_);
    return static_cast<int>(requests_.size());
}

void FakeDiscoveryServer::ResetCounts() {
    std::lock_guard lock(mu_);
    counts_.clear();
    requests_.clear();
}

std::vector<std::string> FakeDiscoveryServer::Requests() const {
    std::lock_guard lock(mu_);
    return requests_;
}

std::unique_ptr<rest::Transport> FakeDiscoveryServer::MakeTransport() {
    return std::make_unique<FakeTransport>(*this);
}

rest::HttpResponse FakeDiscoveryServer::Answer(const rest::HttpRequest& request, Status& transport_error) {
    std::lock_guard lock(mu_);
    const std::string path = request.target.substr(0, request.target.find('?'));
    ++counts_[path];
    requests_.push_back(path);
    if (auto drop = drops_.find(path); drop != drops_.end() && drop->second > 0) {
        --drop->second;
        transport_error = UnavailableError("connection to the fake server dropped reading " + path);
        return {};
    }
    if (auto fail = failures_.find(path); fail != failures_.end() && fail->second.second > 0) {
        --fail->second.second;
        const int code = fail->second.first;
        return {code,
                {{"Content-Type", "application/json"}},
                R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"injected failure","code":)" +
                    std::to_string(code) + "}"};
    }
    const std::string accept(request.FindHeader("Accept").value_or(""));
    const bool aggregated = aggregated_supported_ && accept.find("as=APIGroupDiscoveryList") != std::string::npos;
    const std::string aggregated_type = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    if (path == "/api") {
        if (aggregated)
            return {200, {{"Content-Type", aggregated_type}}, RenderAggregatedLocked(true)};
        return {200, {{"Content-Type", "application/json"}}, RenderApiVersionsLocked()};
    }
    if (path == "/apis") {
        if (aggregated)
            return {200, {{"Content-Type", aggregated_type}}, RenderAggregatedLocked(false)};
        return {200, {{"Content-Type", "application/json"}}, RenderGroupListLocked()};
    }
    std::string_view rest = path;
    GroupVersion gv;
    if (rest.starts_with("/api/")) {
        gv.version = std::string(rest.substr(5));
    } else if (rest.starts_with("/apis/")) {
        rest.remove_prefix(6);
        const auto slash = rest.find('/');
        if (slash != std::string_view::npos) {
            gv.group = std::string(rest.substr(0, slash));
            gv.version = std::string(rest.substr(slash + 1));
        }
    }
    auto group = groups_.find(gv.group);
    if (!gv.version.empty() && group != groups_.end() && group->second.versions.count(gv.version) != 0) {
        return {200, {{"Content-Type", "application/json"}}, RenderResourceListLocked(gv)};
    }
    return {
        404,
        {{"Content-Type", "application/json"}},
        R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","code":404})"};
}

std::string FakeDiscoveryServer::RenderApiVersionsLocked() const {
    std::string versions;
    if (auto core = groups_.find(""); core != groups_.end()) {
        for (const std::string& v : core->second.order)
            versions += (versions.empty() ? "" : ",") + Quote(v);
    }
    return R"({"kind":"APIVersions","versions":[)" + versions + R"(],"serverAddressByClientCIDRs":[]})";
}

std::string FakeDiscoveryServer::RenderGroupListLocked() const {
    std::string groups;
    for (const auto& [name, group] : groups_) {
        if (name.empty() || group.order.empty())
            continue;
        std::string versions;
        for (const std::string& v : group.order) {
            versions += (versions.empty() ? "" : ",") + std::string(R"({"groupVersion":)") +
                        Quote(GroupVersionString(name, v)) + R"(,"version":)" + Quote(v) + "}";
        }
        const std::string& preferred = group.order.front();
        groups += (groups.empty() ? "" : ",") + std::string(R"({"name":)") + Quote(name) + R"(,"versions":[)" +
                  versions + R"(],"preferredVersion":{"groupVersion":)" + Quote(GroupVersionString(name, preferred)) +
                  R"(,"version":)" + Quote(preferred) + "}}";
    }
    return R"({"kind":"APIGroupList","apiVersion":"v1","groups":[)" + groups + "]}";
}

std::string FakeDiscoveryServer::RenderResourceListLocked(const GroupVersion& gv) const {
    std::string resources;
    for (const APIResource& r : groups_.at(gv.group).versions.at(gv.version).resources) {
        resources += (resources.empty() ? "" : ",") + std::string(R"({"name":)") + Quote(r.name) +
                     R"(,"singularName":)" + Quote(r.singular_name) + R"(,"namespaced":)" +
                     (r.namespaced ? "true" : "false") + R"(,"kind":)" + Quote(r.kind) +
                     R"(,"verbs":["get","list","watch"]})";
    }
    return R"({"kind":"APIResourceList","apiVersion":"v1","groupVersion":)" +
           Quote(GroupVersionString(gv.group, gv.version)) + R"(,"resources":[)" + resources + "]}";
}

std::string FakeDiscoveryServer::RenderAggregatedLocked(bool core) const {
    std::string items;
    for (const auto& [name, group] : groups_) {
        if (name.empty() != core || group.order.empty())
            continue;
        std::string versions;
        for (const std::string& v : group.order) {
            const Version& version = group.versions.at(v);
            std::string resources;
            for (const APIResource& r : version.resources) {
                resources += (resources.empty() ? "" : ",") + std::string(R"({"resource":)") + Quote(r.name) +
                             R"(,"responseKind":{"group":)" + Quote(name) + R"(,"version":)" + Quote(v) +
                             R"(,"kind":)" + Quote(r.kind) + R"(},"scope":)" +
                             Quote(r.namespaced ? "Namespaced" : "Cluster") + R"(,"singularResource":)" +
                             Quote(r.singular_name) + R"(,"verbs":["get","list","watch"]})";
            }
            versions += (versions.empty() ? "" : ",") + std::string(R"({"version":)") + Quote(v) + R"(,"resources":[)" +
                        resources + R"(],"freshness":)" + Quote(version.stale ? "Stale" : "Current") + "}";
        }
        items += (items.empty() ? "" : ",") + std::string(R"({"metadata":{"name":)") + Quote(name) +
                 R"(},"versions":[)" + versions + "]}";
    }
    return R"({"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[)" + items +
           "]}";
}

}  // namespace ctrl::discovery::test
