#pragma once

// A RestClient whose every request is counted (CountingTransport): what integration tests build a
// cluster::Cluster or a client over when they count requests. Header-only.

#include <memory>
#include <utility>

#include <boost/asio/any_io_executor.hpp>

#include "runtime/metrics/registry.hpp"
#include "runtime/rest/authenticator.hpp"
#include "runtime/rest/config.hpp"
#include "runtime/rest/rest_client.hpp"
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

}  // namespace ctrl::testing
