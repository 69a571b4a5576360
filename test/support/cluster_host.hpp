#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "ctrl/cluster/cluster.hpp"
#include "ctrl/controller/controller.hpp"
#include "ctrl/controller/host.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::testing {

// A controller::Host over a cluster::Cluster for tests and benchmarks that run controllers
// without a manager: Run runs the cluster's cache and every added controller until ctx ends
// (no leader election, no servers). Controllers added while Run runs are started at once.
class ClusterHost final : public controller::Host {
  public:
    ClusterHost(cluster::Cluster& cluster, metrics::Registry& registry, controller::Options defaults = {})
        : cluster_(cluster), registry_(registry), defaults_(std::move(defaults)) {}

    cache::Informers& GetCache() override { return cluster_.GetCache(); }
    const scheme::Scheme& GetScheme() const override { return cluster_.GetScheme(); }
    discovery::RESTMapper& GetRESTMapper() override { return cluster_.GetRESTMapper(); }
    boost::asio::any_io_executor GetExecutor() const override { return cluster_.GetExecutor(); }
    metrics::Registry& GetMetricsRegistry() override { return registry_; }
    log::Logger GetLogger() const override { return log::Logger(); }
    controller::Options ControllerDefaults() const override { return defaults_; }
    Status Add(std::shared_ptr<controller::Controller> controller) override;

    // Runs the cache and the controllers until ctx ends; returns after all have stopped, with the
    // first error any of them returned.
    Task<Status> Run(Context ctx);

    std::vector<std::shared_ptr<controller::Controller>> Controllers() const;

  private:
    void Launch(Task<Status> task);

    cluster::Cluster& cluster_;
    metrics::Registry& registry_;
    const controller::Options defaults_;
    mutable std::mutex mu_;
    std::vector<std::shared_ptr<controller::Controller>> controllers_;
    bool running_ = false;
    Context run_ctx_ = Context::Background();
    struct RunState;
    std::shared_ptr<RunState> state_;
};

}  // namespace ctrl::testing
