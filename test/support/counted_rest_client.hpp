#pragma once

// A RestClient, and a cluster::Cluster over it, whose every request is counted (CountingTransport):
// what integration tests build on when they count requests. Header-only.

#include <memory>
#include <utility>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/cluster/cluster.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/authenticator.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "test/support/counting_transport.hpp"

namespace ctrl::testing {

struct CountedRestClient {
    std::shared_ptr<rest::RestClient> rest;
    CountingTransport* transport = nullptr;  // owned by rest
};

// The default transport of config, wrapped to count, under config's authenticator; rest_client_*
// metrics go to registry.
inline StatusOr<CountedRestClient> NewCountedRestClient(const rest::Config& config,
                                                        const boost::asio::any_io_executor& executor,
                                                        metrics::Registry& registry) {
    CTRL_ASSIGN_OR_RETURN(std::unique_ptr<rest::Transport> transport, rest::NewTransport(config, executor));
    auto counting = std::make_unique<CountingTransport>(std::move(transport));
    CountedRestClient made;
    made.transport = counting.get();
    CTRL_ASSIGN_OR_RETURN(std::shared_ptr<rest::Authenticator> auth, rest::NewAuthenticator(config));
    made.rest = std::make_shared<rest::RestClient>(config, std::move(counting), std::move(auth), registry);
    return made;
}

struct CountedCluster {
    std::unique_ptr<cluster::Cluster> cluster;
    CountingTransport* transport = nullptr;  // owned by the cluster's RestClient
};

// A Cluster (cluster::Cluster::NewForRestClient) over NewCountedRestClient; every metric goes to
// registry (options.registry is set to it).
inline StatusOr<CountedCluster> NewCountedCluster(const rest::Config& config,
                                                  const boost::asio::any_io_executor& executor,
                                                  metrics::Registry& registry, cluster::Options options = {}) {
    CTRL_ASSIGN_OR_RETURN(CountedRestClient counted, NewCountedRestClient(config, executor, registry));
    options.registry = &registry;
    CountedCluster made;
    made.transport = counted.transport;
    CTRL_ASSIGN_OR_RETURN(made.cluster, cluster::Cluster::NewForRestClient(counted.rest, executor, std::move(options)));
    return made;
}

}  // namespace ctrl::testing
