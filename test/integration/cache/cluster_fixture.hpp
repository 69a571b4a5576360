#pragma once

// The fixture of the cache's tests against the real control plane: a loop thread, an admin
// RestClient straight to the API server, optionally a second one through a TcpProxy, and a
// reflector on pods of one namespace.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/cache/internal/processor.hpp"
#include "ctrl/cache/reflector.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "test/integration/cache/reflector_test_util.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/tcp_proxy.hpp"

namespace ctrl::cache::test {

using ctrl::testing::Within;

class ClusterTest : public ::testing::Test {
  protected:
    void SetUp() override {
        rest::KubeconfigOptions options;
        options.explicit_path = ctrl::testing::SharedControlPlane().KubeconfigPath();
        StatusOr<rest::Config> config = rest::LoadKubeconfig(options);
        ASSERT_TRUE(config.Ok()) << config.GetStatus();
        config_ = *config;
        auto client = rest::RestClient::New(config_, io_.get_executor(), registry_);
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        client_ = std::move(client).Value();
        thread_ = std::thread([this] { io_.run(); });
    }

    void TearDown() override {
        ctx_.Cancel();
        if (reflector_) {
            EXPECT_TRUE(Eventually([this] { return stopped_.load(); })) << "Run did not return after cancel";
        }
        work_.reset();
        thread_.join();
        if (proxy_)
            proxy_->Stop();
    }

    template <typename T>
    T Run(Task<T> task) {
        return RunOn(io_.get_executor(), std::move(task));
    }

    // A proxy to the API server and a client that goes through it (for the reflector).
    void UseProxy() {
        const std::string& host = ctrl::testing::SharedControlPlane().Host();  // https://127.0.0.1:<port>
        const int port = std::stoi(host.substr(host.rfind(':') + 1));
        auto proxy = ctrl::testing::TcpProxy::Start("127.0.0.1", port);
        ASSERT_TRUE(proxy.Ok()) << proxy.GetStatus();
        proxy_ = std::move(proxy).Value();
        rest::Config proxied = config_;
        proxied.host = "https://127.0.0.1:" + std::to_string(proxy_->Port());
        auto client = rest::RestClient::New(proxied, io_.get_executor(), proxied_registry_);
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        proxied_client_ = std::move(client).Value();
    }

    // Starts a reflector on the pods of namespace_name, through the proxy when there is one.
    // protobuf: watch in protobuf (ListWatchTarget::protobuf).
    void StartReflector(const std::string& namespace_name, ReflectorOptions options = {}, bool protobuf = false) {
        rest::RestClient& client = proxied_client_ ? *proxied_client_ : *client_;
        reflector_ = std::make_unique<Reflector>(client,
                                                 ListWatchTarget{.resource = {"", "v1", "pods"},
                                                                 .namespaced = true,
                                                                 .namespace_name = namespace_name,
                                                                 .protobuf = protobuf},
                                                 store_, processor_, options);
        processor_.SetExecutor(io_.get_executor());
        processor_.AddEventHandler(recorder_);
        boost::asio::co_spawn(io_, reflector_->Run(ctx_), [this](std::exception_ptr) { stopped_ = true; });
    }

    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
    std::thread thread_;
    rest::Config config_;
    metrics::Registry registry_;
    metrics::Registry proxied_registry_;
    std::unique_ptr<rest::RestClient> client_;
    std::unique_ptr<ctrl::testing::TcpProxy> proxy_;
    std::unique_ptr<rest::RestClient> proxied_client_;
    Store store_;
    // The handlers' dispatch an informer would own.
    internal::Processor processor_{store_, "pods", "/v1, Kind=Pod", registry_};
    std::shared_ptr<Recorder> recorder_ = std::make_shared<Recorder>();
    std::unique_ptr<Reflector> reflector_;
    Context ctx_ = Context::WithCancel(Context::Background());
    std::atomic<bool> stopped_{false};
};

}  // namespace ctrl::cache::test
