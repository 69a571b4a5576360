// For both transports: small GET round trips per second against a real kube-apiserver (started
// here, on loopback), and watch-stream throughput (MB/s, events/s) of a recorded pod stream
// served by the scripted fake server, read and decoded through the whole client.

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ctrl/core/task.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/core/object.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "ctrl/rest/request_builder.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "test/support/control_plane.hpp"
#include "test/support/fake_api_server.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::rest {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kRunFor = std::chrono::seconds(3);

const char* Name(TransportKind kind) {
    return kind == TransportKind::kBeast ? "beast" : "cpprest";
}

// GET /version in a loop on `concurrency` coroutines until kRunFor passes; returns round trips.
Task<int> GetLoop(RestClient& client, Clock::time_point until, int& errors) {
    int done = 0;
    StatusOr<HttpRequest> request = RequestBuilder("GET").AbsPath("/version").Build();
    while (Clock::now() < until) {
        StatusOr<HttpResponse> response = co_await client.Do(Context::Background(), *request);
        if (!response.Ok())
            ++errors;
        ++done;
    }
    co_return done;
}

void BenchGet(const Config& base, TransportKind kind, int concurrency) {
    Config config = base;
    config.transport = kind;
    boost::asio::io_context io;
    metrics::Registry registry;
    StatusOr<std::unique_ptr<Transport>> transport = NewTransport(config, io.get_executor());
    StatusOr<std::shared_ptr<Authenticator>> auth = NewAuthenticator(config);
    if (!transport.Ok() || !auth.Ok()) {
        std::fprintf(stderr, "setup failed: %s %s\n", transport.GetStatus().ToString().c_str(),
                     auth.GetStatus().ToString().c_str());
        return;
    }
    RestClient client(config, std::move(transport).Value(), std::move(auth).Value(), registry);
    int errors = 0;
    int total = 0;
    const auto start = Clock::now();
    const auto until = start + kRunFor;
    for (int i = 0; i < concurrency; ++i) {
        boost::asio::co_spawn(io, GetLoop(client, until, errors), [&total](std::exception_ptr, int n) { total += n; });
    }
    io.run();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("%-8s GET /version, %2d concurrent on 1 thread: %8.0f round trips/s  (%d in %.1f s, %d errors)\n",
                Name(kind), concurrency, total / seconds, total, seconds, errors);
}

// A recorded-like stream: `events` pod watch events built from test/unit/core/testdata/pod.json.
std::string PodStream(int events, std::size_t& bytes) {
    std::ifstream in(testing::RepoPath("test/unit/core/testdata/pod.json"));
    std::stringstream pod_json;
    pod_json << in.rdbuf();
    StatusOr<Object> pod = Object::Parse(pod_json.str());
    std::string stream;
    for (int i = 0; pod.Ok() && i < events; ++i) {
        pod->SetName("pod-" + std::to_string(i));
        pod->SetResourceVersion(std::to_string(1000 + i));
        stream += std::string(R"({"type":")") + (i % 5 == 0 ? "ADDED" : "MODIFIED") + R"(","object":)" + pod->ToJson() +
                  "}\n";
    }
    bytes = stream.size();
    return stream;
}

Task<int> ReadAll(RestClient& client, std::size_t& errors) {
    StatusOr<HttpRequest> request = RequestBuilder("GET").AbsPath("/api/v1/pods?watch=true").Build();
    StatusOr<std::unique_ptr<WatchStream>> stream = co_await client.Watch(Context::Background(), *request);
    if (!stream.Ok()) {
        ++errors;
        co_return 0;
    }
    int events = 0;
    while (true) {
        StatusOr<std::optional<WatchEvent>> event = co_await (*stream)->Next(Context::Background());
        if (!event.Ok()) {
            ++errors;
            break;
        }
        if (!*event)
            break;
        ++events;
    }
    co_return events;
}

void BenchWatch(TransportKind kind, const std::string& stream, std::size_t bytes) {
    auto server = ctrl::testing::FakeApiServer::Start();
    if (!server.Ok()) {
        std::fprintf(stderr, "fake server: %s\n", server.GetStatus().ToString().c_str());
        return;
    }
    std::vector<ctrl::testing::FakeChunk> chunks;
    for (std::size_t at = 0; at < stream.size(); at += 64 * 1024)
        chunks.push_back({.data = stream.substr(at, 64 * 1024)});
    (*server)->Handle({.method = "GET", .path = "/api/v1/pods"}, {ctrl::testing::FakeResponse::Stream(chunks)});
    Config config;
    config.host = (*server)->Url();
    config.transport = kind;
    boost::asio::io_context io;
    metrics::Registry registry;
    StatusOr<std::unique_ptr<Transport>> transport = NewTransport(config, io.get_executor());
    if (!transport.Ok())
        return;
    RestClient client(config, std::move(transport).Value(), nullptr, registry);
    std::size_t errors = 0;
    const auto start = Clock::now();
    const int events = RunSync(io, ReadAll(client, errors));
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("%-8s watch stream over loopback: %7.1f MB/s, %8.0f events/s  (%d events, %.1f MB, %zu errors)\n",
                Name(kind), bytes / seconds / 1e6, events / seconds, events, bytes / 1e6, errors);
}

}  // namespace
}  // namespace ctrl::rest

int main() {
    using namespace ctrl::rest;
    ctrl::testing::ControlPlane control_plane;
    if (ctrl::Status started = control_plane.Start(); !started.Ok()) {
        std::fprintf(stderr, "control plane: %s\n", started.ToString().c_str());
        return 1;
    }
    std::printf("kube-apiserver %s on loopback (shares the machine's cores with this client)\n",
                control_plane.Version().c_str());
    KubeconfigOptions options;
    options.explicit_path = control_plane.KubeconfigPath();
    ctrl::StatusOr<Config> config = LoadKubeconfig(options);
    if (!config.Ok()) {
        std::fprintf(stderr, "kubeconfig: %s\n", config.GetStatus().ToString().c_str());
        return 1;
    }
    for (TransportKind kind : {TransportKind::kBeast, TransportKind::kCppRest}) {
        BenchGet(*config, kind, 1);
        BenchGet(*config, kind, 16);
    }
    control_plane.Stop();
    std::size_t bytes = 0;
    const std::string stream = PodStream(10000, bytes);
    for (TransportKind kind : {TransportKind::kBeast, TransportKind::kCppRest})
        BenchWatch(kind, stream, bytes);
    return 0;
}
