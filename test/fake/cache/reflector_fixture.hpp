#pragma once

// The fixture of the reflector's fake-server tests: a reflector over /api/v1/pods of a scripted fake
// API server, on either transport, its events recorded.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/cache/internal/processor.hpp"
#include "ctrl/cache/reflector.hpp"
#include "test/integration/cache/reflector_test_util.hpp"
#include "test/support/eventually.hpp"
#include "test/support/fake_api_server.hpp"

namespace ctrl::cache::test {

using ctrl::testing::FakeApiServer;
using ctrl::testing::FakeEnd;
using ctrl::testing::FakeRequest;
using ctrl::testing::FakeResponse;
using namespace std::chrono_literals;

// Answers list requests and watch requests of /api/v1/pods from two scripts, each response in
// turn (the last one repeating), and keeps the requests of each.
class PodsScript {
  public:
    void SetLists(std::vector<FakeResponse> lists) {
        std::lock_guard lock(mu_);
        lists_ = std::move(lists);
    }
    void SetWatches(std::vector<FakeResponse> watches) {
        std::lock_guard lock(mu_);
        watches_ = std::move(watches);
    }
    FakeResponse Answer(const FakeRequest& request) {
        std::lock_guard lock(mu_);
        const bool watch = request.QueryParam("watch") == "true";
        auto& requests = watch ? watch_requests_ : list_requests_;
        const auto& script = watch ? watches_ : lists_;
        requests.push_back(request);
        if (script.empty())
            return FakeResponse::ApiStatus(500, "InternalError", "no script");
        return script[std::min(requests.size(), script.size()) - 1];
    }
    std::vector<FakeRequest> Lists() const {
        std::lock_guard lock(mu_);
        return list_requests_;
    }
    std::vector<FakeRequest> Watches() const {
        std::lock_guard lock(mu_);
        return watch_requests_;
    }

  private:
    mutable std::mutex mu_;
    std::vector<FakeResponse> lists_;
    std::vector<FakeResponse> watches_;
    std::vector<FakeRequest> list_requests_;
    std::vector<FakeRequest> watch_requests_;
};

inline FakeResponse Json(const std::string& body) {
    return FakeResponse::Json(200, body);
}

// A watch that sends lines and then stays open.
inline FakeResponse OpenWatch(const std::string& lines) {
    return FakeResponse::Stream({{.data = lines}}, FakeEnd::kHang);
}

// Each test runs on both transports (Beast and cpprestsdk).
class ReflectorFixture : public ::testing::TestWithParam<rest::TransportKind> {
  protected:
    void SetUp() override {
        auto server = FakeApiServer::Start();
        ASSERT_TRUE(server.Ok()) << server.GetStatus();
        server_ = std::move(server).Value();
        server_->Handle({.method = "GET", .path = "/api/v1/pods"},
                        [this](const FakeRequest& request) { return script_.Answer(request); });
        rest::Config config;
        config.host = server_->Url();
        config.transport = GetParam();
        auto client = rest::RestClient::New(config, io_.get_executor(), registry_);
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        client_ = std::move(client).Value();
        thread_ = std::thread([this] { io_.run(); });
    }

    void TearDown() override {
        ctx_.Cancel();
        EXPECT_TRUE(Eventually([this] { return stopped_.load(); })) << "Run did not return after cancel";
        work_.reset();
        thread_.join();
        server_->Stop();
    }

    void Start(ReflectorOptions options = FastOptions()) {
        reflector_ = std::make_unique<Reflector>(
            *client_, ListWatchTarget{.resource = {"", "v1", "pods"}, .namespaced = true}, store_, processor_, options);
        processor_.SetExecutor(io_.get_executor());
        processor_.AddEventHandler(recorder_);
        boost::asio::co_spawn(io_, reflector_->Run(ctx_), [this](std::exception_ptr) { stopped_ = true; });
    }

    // Paged lists (these tests are about them; reflector_watch_list_test.cpp turns watch-lists on).
    static ReflectorOptions FastOptions() {
        return {.watch_list = false, .page_size = 500, .initial_backoff = 10ms, .max_backoff = 50ms};
    }

    std::vector<std::string> StoreKeys() { return store_.ListKeys(); }
    std::string RvOf(const std::string& name) { return store_.Get("ns", name).ResourceVersion(); }

    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
    std::thread thread_;
    metrics::Registry registry_;
    std::unique_ptr<FakeApiServer> server_;
    PodsScript script_;
    std::unique_ptr<rest::RestClient> client_;
    Store store_;
    // The handlers' dispatch an informer would own.
    internal::Processor processor_{store_, "pods", "/v1, Kind=Pod", registry_};
    std::shared_ptr<Recorder> recorder_ = std::make_shared<Recorder>();
    std::unique_ptr<Reflector> reflector_;
    Context ctx_ = Context::WithCancel(Context::Background());
    std::atomic<bool> stopped_{false};
};

// Names the transport in the test's name.
inline std::string TransportName(const ::testing::TestParamInfo<rest::TransportKind>& info) {
    return info.param == rest::TransportKind::kBeast ? "Beast" : "CppRest";
}

}  // namespace ctrl::cache::test
