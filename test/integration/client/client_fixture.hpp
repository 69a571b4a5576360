#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include <boost/asio/io_context.hpp>

#include "ctrl/client/client.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/transport.hpp"
#include "test/support/counting_transport.hpp"

namespace ctrl::client::test {

using ctrl::testing::CountingTransport;

// A direct client on the shared control plane, run on this thread with RunSync, and a namespace
// of its own per test.
class ClientTest : public ::testing::Test {
  protected:
    void SetUp() override;
    void TearDown() override;

    // Runs task to the end on io_.
    template <typename T>
    T Run(Task<T> task) {
        return RunSync(io_, std::move(task));
    }
    // A context with a 30 s deadline.
    static Context Ctx() { return Context::WithTimeout(Context::Background(), std::chrono::seconds(30)); }
    // Another client on the same server (a concurrent writer), with its own io_context.
    std::unique_ptr<Client> NewClient(boost::asio::io_context& io, Options options = {});

    // Creates a ConfigMap in ns_ with labels and data, and returns it as the server answered.
    Object CreateConfigMap(const std::string& name, const std::map<std::string, std::string>& labels = {},
                           const std::map<std::string, std::string>& data = {});
    // Requests that reached the transport so far.
    int Requests() const { return counter_->Count(); }

    boost::asio::io_context io_;
    metrics::Registry registry_;
    CountingTransport* counter_ = nullptr;
    std::shared_ptr<rest::RestClient> rest_;
    std::unique_ptr<Client> client_;
    std::string ns_;
};

}  // namespace ctrl::client::test
