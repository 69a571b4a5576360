#pragma once

// A fixture for controller integration tests: an io_context on two threads, a cluster::Cluster
// against the shared control plane (with its own metrics registry and a request-counting
// transport), a ClusterHost running the controllers, and a namespace per test.

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/controller/controller.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/reconcile/reconciler.hpp"
#include "test/support/cluster_host.hpp"
#include "test/support/counting_transport.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::testing {

// Records what a reconciler was asked, and when.
class ReconcileLog {
  public:
    struct Call {
        std::string key;
        std::chrono::steady_clock::time_point start;
        std::chrono::steady_clock::time_point end;
    };
    void Begin(const std::string& key);
    void End(const std::string& key);
    int Count(const std::string& key) const;
    std::vector<Call> Calls(const std::string& key) const;
    std::vector<std::string> Keys() const;
    // Whether two reconciles of one key ever ran at once.
    bool Overlapped() const;

  private:
    mutable std::mutex mu_;
    std::vector<Call> calls_;
    std::map<std::string, int> in_flight_;
    bool overlapped_ = false;
};

class ControllerFixture : public ::testing::Test {
  protected:
    void SetUp() override;
    // Changes the cluster's options before it is made (default: namespaced kinds cached in the
    // test's namespace only).
    virtual void ConfigureCluster(cluster::Options& /*options*/) {}
    // Changes the connection's config before the cluster is made (e.g. wrap_transport).
    virtual void ConfigureRestConfig(rest::Config& /*config*/) {}
    void TearDown() override;

    // Runs the host (cache and controllers) in the background until TearDown.
    void StartHost();
    template <typename T>
    T Run(Task<T> task) {
        return RunOn(io_.get_executor(), std::move(task));
    }
    client::Client& Client() { return cluster_->GetClient(); }
    client::Client& Direct() { return cluster_->GetAPIReader(); }
    // A fresh namespace for this test (named after it).
    const std::string& Namespace() const { return namespace_; }
    std::string Scrape() const { return registry_.SerializeText(); }
    // Creates make(0) .. make(count - 1) through the direct client, 10 threads at once (an object
    // that exists already counts as made); the first other error.
    Status CreateConfigMaps(int count, const std::function<api::ConfigMap(int)>& make);

    metrics::Registry registry_;
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
    std::vector<std::thread> loops_;
    CountingTransport* transport_ = nullptr;
    std::unique_ptr<cluster::Cluster> cluster_;
    std::unique_ptr<ClusterHost> host_;
    Context stop_ = Context::WithCancel(Context::Background());
    std::shared_ptr<std::promise<Status>> host_done_;
    std::string namespace_;
};

}  // namespace ctrl::testing
