#pragma once

// Boost 1.74's awaitable.hpp needs <utility> first: task.hpp includes it in that order.
#include "ctrl/core/task.hpp"

#include <memory>

#include <boost/asio/io_context.hpp>

#include "ctrl/client/client.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/rest/rest_client.hpp"

namespace ctrl::envtest::internal {

// The connection envtest installs manifests with (CRDs, webhook configurations): an event loop the
// installer runs on its own thread (RunSync), and a metrics registry of its own, since installing
// is not the user's traffic.
struct InstallerClient {
    static StatusOr<std::unique_ptr<InstallerClient>> New(const rest::Config& config);

    metrics::Registry registry;
    boost::asio::io_context io;
    std::shared_ptr<rest::RestClient> rest;
    std::unique_ptr<client::Client> client;
};

// Creates object, or, when one of its name exists, updates that one to it (at its resourceVersion).
Task<Status> CreateOrUpdate(Context ctx, client::Client& client, Object& object);

}  // namespace ctrl::envtest::internal
