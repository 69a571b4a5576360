#pragma once

// Load for webhook tests: clients that send server-side dry-run creates of ConfigMaps through the
// API server, which calls the admission webhooks configured for them, until stopped. Each client
// is a thread with its own io_context and connection, as separate users would be. Header-only.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/core/run_sync.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::testing {

// `clients` loops of dry-run creates of ConfigMaps named generate_prefix* in namespace ns; counts
// what was sent and what failed (and keeps the first failure). Stops (and joins) on Stop or
// destruction.
class DryRunLoad {
  public:
    DryRunLoad(int clients, std::string ns, std::string generate_prefix = "load-")
        : ns_(std::move(ns)), prefix_(std::move(generate_prefix)) {
        for (int i = 0; i < clients; ++i)
            threads_.emplace_back([this] { Loop(); });
    }
    ~DryRunLoad() { Stop(); }
    DryRunLoad(const DryRunLoad&) = delete;
    DryRunLoad& operator=(const DryRunLoad&) = delete;

    void Stop() {
        stop_.store(true);
        for (std::thread& thread : threads_)
            if (thread.joinable())
                thread.join();
    }
    int Sent() const { return sent_.load(); }
    int Failed() const { return failed_.load(); }
    std::string FirstFailure() const {
        std::lock_guard lock(mu_);
        return first_failure_;
    }

  private:
    void Loop() {
        boost::asio::io_context io;
        StatusOr<std::unique_ptr<client::Client>> made = client::New(SharedAdminConfig(), io.get_executor());
        if (!made.Ok()) {
            Count(made.GetStatus());
            return;
        }
        while (!stop_.load()) {
            api::ConfigMap cm;
            cm.SetNamespace(ns_);
            cm.SetGenerateName(prefix_);
            cm.SetDataValue("load", "1");
            Count(RunSync(io, (*made)->Create(TestContext(), cm, client::DryRunAll())));
        }
    }
    void Count(const Status& status) {
        sent_.fetch_add(1);
        if (status.Ok())
            return;
        failed_.fetch_add(1);
        std::lock_guard lock(mu_);
        if (first_failure_.empty())
            first_failure_ = status.ToString();
    }

    const std::string ns_;
    const std::string prefix_;
    std::atomic<bool> stop_{false};
    std::atomic<int> sent_{0};
    std::atomic<int> failed_{0};
    mutable std::mutex mu_;
    std::string first_failure_;
    std::vector<std::thread> threads_;
};

}  // namespace ctrl::testing
