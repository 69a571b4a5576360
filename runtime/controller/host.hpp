#pragma once

#include <memory>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/cache/informers.hpp"
#include "ctrl/controller/controller_options.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/discovery/rest_mapper.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/scheme/scheme.hpp"

namespace ctrl::controller {

class Controller;

// What runs controllers and gives them what they watch through (the part of controller-runtime's
// manager.Manager the builder uses). manager::Manager implements it; so can a test or a small
// program over a cluster::Cluster. Controllers handed to Add are run by the host: started after
// its caches, with the leader election they ask for, stopped before them.
class Host {
  public:
    virtual ~Host() = default;
    // The informers Kind sources watch (the host's cache).
    virtual cache::Informers& GetCache() = 0;
    virtual const scheme::Scheme& GetScheme() const = 0;
    virtual discovery::RESTMapper& GetRESTMapper() = 0;
    // The executor controllers run their workers on.
    virtual boost::asio::any_io_executor GetExecutor() const = 0;
    // Where controller and workqueue metrics go.
    virtual metrics::Registry& GetMetricsRegistry() = 0;
    // The parent of every controller's logger.
    virtual log::Logger GetLogger() const = 0;
    // Defaults for every controller built against this host (controller-runtime's manager-wide
    // controller config): a builder starts from these, then applies WithOptions.
    virtual Options ControllerDefaults() const { return {}; }
    // Takes a controller to run. An error when the host cannot take it (it has stopped).
    virtual Status Add(std::shared_ptr<Controller> controller) = 0;
};

}  // namespace ctrl::controller
