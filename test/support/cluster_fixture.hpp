#pragma once

// A cluster::Cluster over the shared control plane, on an io_context run by two threads, with a
// transport that counts requests: what the leader election and event recorder integration tests
// build on.

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/cluster/cluster.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/metrics/registry.hpp"
#include "test/support/counted_rest_client.hpp"
#include "test/support/counting_transport.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::testing {

class ClusterFixture : public ::testing::Test {
  protected:
    void SetUp() override {
        for (auto& thread : loop_)
            thread = std::thread([this] { io_.run(); });
        const rest::Config config = SharedAdminConfig();
        cluster::Options options;
        StatusOr<CountedCluster> counted = NewCountedCluster(config, io_.get_executor(), registry_, std::move(options));
        ASSERT_TRUE(counted.Ok()) << counted.GetStatus();
        transport_ = counted->transport;
        cluster_ = std::move(counted->cluster);
    }

    void TearDown() override {
        cluster_.reset();
        work_.reset();
        for (auto& thread : loop_)
            thread.join();
    }

    template <typename T>
    T Run(Task<T> task) {
        return RunOn(io_.get_executor(), std::move(task));
    }

    // name + "-" + a random suffix, so reruns on the shared control plane never meet old objects.
    static std::string UniqueName(const std::string& name) {
        static std::mt19937 random{std::random_device{}()};
        return name + "-" + std::to_string(random() % 1'000'000);
    }

    metrics::Registry registry_;
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
    std::thread loop_[2];
    CountingTransport* transport_ = nullptr;
    std::unique_ptr<cluster::Cluster> cluster_;
};

}  // namespace ctrl::testing
