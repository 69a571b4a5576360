#pragma once

#include <memory>
#include <string>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/cache/cache.hpp"
#include "ctrl/cache/cache_options.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/client/delegating_client.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/discovery/discovery_client.hpp"
#include "ctrl/discovery/lazy_rest_mapper.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "ctrl/scheme/scheme.hpp"

namespace ctrl::cluster {

// What New builds, each with its default.
struct Options {
    // The kinds the client and cache know. Default: every built-in kind of runtime/api.
    std::shared_ptr<const scheme::Scheme> scheme{};
    // Where rest_client_*, discovery and mapper metrics go (the informers' go to cache.registry).
    // Default: metrics::DefaultRegistry().
    metrics::Registry* registry = nullptr;
    // The informer cache: namespaces, per-kind selectors and transforms, resync, ... (CacheOptions' defaults).
    cache::CacheOptions cache{};
    // Which reads GetClient() sends to the server instead of the cache: `uncached` kinds
    // (controller-runtime's client.Options.Cache.DisableFor) and, unless `unstructured` is set,
    // plain Object reads. Default: every typed and metadata-only read comes from the cache.
    client::CacheReadOptions client_cache{};
    // The field manager of writes that name none. Default: none (the server derives one).
    std::string field_owner{};
    // Every write of the client is a dry run. Default: false.
    bool dry_run = false;
    discovery::DiscoveryOptions discovery{};
    discovery::LazyRESTMapperOptions mapper{};
};

// Everything that talks to one cluster, built by one call and owned in one place
// (controller-runtime's cluster.Cluster): one RestClient (one connection pool, one rate limiter),
// one lazy RESTMapper over one discovery client, the Scheme, the informer Cache, the direct client
// (GetAPIReader) and the delegating client that reads from the cache (GetClient). Every part
// shares the RestClient and the mapper.
//
// Ownership: the Cluster owns them all; the references it hands out are valid while it lives.
// Running informers also hold the RestClient and mapper they use, so destroying the Cluster while
// Run is active is safe (it cancels them). Thread-safe.
class Cluster final {
  public:
    // Connects nothing yet: the first request is made by the first read, write or Run. BadRequest
    // for a config that cannot make a transport (naming what is wrong).
    static StatusOr<std::unique_ptr<Cluster>> New(const rest::Config& config, boost::asio::any_io_executor executor,
                                                  Options options = {});
    // The same over an existing RestClient (tests wrap its transport to count requests).
    static StatusOr<std::unique_ptr<Cluster>> NewForRestClient(std::shared_ptr<rest::RestClient> rest,
                                                               boost::asio::any_io_executor executor,
                                                               Options options = {});
    ~Cluster();
    Cluster(const Cluster&) = delete;
    Cluster& operator=(const Cluster&) = delete;

    // Reads from the cache (typed and metadata-only; see Options::client_cache), writes to the server.
    client::Client& GetClient() { return *delegating_; }
    // Every call goes to the server (controller-runtime's GetAPIReader, and its uncached writer).
    client::Client& GetAPIReader() { return *direct_; }
    cache::Cache& GetCache() { return *cache_; }
    const scheme::Scheme& GetScheme() const { return *scheme_; }
    discovery::RESTMapper& GetRESTMapper() { return *mapper_; }
    rest::RestClient& GetRestClient() { return *rest_; }
    const std::shared_ptr<rest::RestClient>& SharedRestClient() const { return rest_; }
    boost::asio::any_io_executor GetExecutor() const { return executor_; }

    // Runs the cache's informers until ctx ends, and returns once all have stopped
    // (cache::Cache::Run): what a Manager awaits.
    Task<Status> Run(Context ctx);
    // Run without awaiting it (cache::Cache::Start), for callers that are not a Task.
    void Start(Context ctx);
    // Waits until every informer made so far has synced (cache::Cache::WaitForCacheSync).
    Task<Status> WaitForCacheSync(Context ctx);

  private:
    Cluster() = default;

    std::shared_ptr<rest::RestClient> rest_;
    std::shared_ptr<const scheme::Scheme> scheme_;
    std::shared_ptr<discovery::LazyRESTMapper> mapper_;
    boost::asio::any_io_executor executor_;
    std::unique_ptr<cache::Cache> cache_;  // before direct_: it observes direct_'s writes
    std::unique_ptr<client::Client> direct_;
    std::unique_ptr<client::DelegatingClient> delegating_;
};

}  // namespace ctrl::cluster
