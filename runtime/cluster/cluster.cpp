#include "ctrl/cluster/cluster.hpp"

#include <utility>

#include "ctrl/api/builtins.hpp"
#include "ctrl/discovery/mapper_for_rest_client.hpp"

namespace ctrl::cluster {

StatusOr<std::unique_ptr<Cluster>> Cluster::New(const rest::Config& config, boost::asio::any_io_executor executor,
                                                Options options) {
    metrics::Registry& registry = options.registry != nullptr ? *options.registry : metrics::DefaultRegistry();
    CTRL_ASSIGN_OR_RETURN(std::unique_ptr<rest::RestClient> rest, rest::RestClient::New(config, executor, registry));
    return NewForRestClient(std::shared_ptr<rest::RestClient>(std::move(rest)), std::move(executor),
                            std::move(options));
}

StatusOr<std::unique_ptr<Cluster>> Cluster::NewForRestClient(std::shared_ptr<rest::RestClient> rest,
                                                             boost::asio::any_io_executor executor, Options options) {
    if (rest == nullptr)
        return BadRequestError("cluster::NewForRestClient: the RestClient is null");
    metrics::Registry& registry = options.registry != nullptr ? *options.registry : metrics::DefaultRegistry();
    std::unique_ptr<Cluster> cluster(new Cluster());
    cluster->rest_ = std::move(rest);
    cluster->executor_ = std::move(executor);
    cluster->scheme_ = options.scheme;
    if (cluster->scheme_ == nullptr) {
        auto builtins = std::make_shared<scheme::Scheme>();
        CTRL_RETURN_IF_ERROR(api::AddAllBuiltinsToScheme(*builtins));
        cluster->scheme_ = std::move(builtins);
    }
    cluster->mapper_ = discovery::NewLazyRESTMapperFor(cluster->rest_, std::move(options.discovery),
                                                       std::move(options.mapper), registry);

    cluster->cache_ =
        std::make_unique<cache::Cache>(cluster->rest_, cluster->mapper_, cluster->executor_, std::move(options.cache));
    client::Options client_options;
    client_options.scheme = cluster->scheme_;
    client_options.mapper = cluster->mapper_;
    client_options.dry_run = options.dry_run;
    client_options.field_owner = std::move(options.field_owner);
    client_options.registry = &registry;
    // Every write of either client is one the cache's reads must not be older than.
    client_options.write_observer = cluster->cache_.get();
    CTRL_ASSIGN_OR_RETURN(cluster->direct_, client::NewForRestClient(cluster->rest_, std::move(client_options)));
    cluster->cache_->SetLiveReader(cluster->direct_.get());  // for what a bounded kind evicted
    cluster->delegating_ = std::make_unique<client::DelegatingClient>(*cluster->direct_, *cluster->cache_,
                                                                      std::move(options.client_cache));
    return cluster;
}

Cluster::~Cluster() = default;

Task<Status> Cluster::Run(Context ctx) {
    return cache_->Run(std::move(ctx));
}

void Cluster::Start(Context ctx) {
    cache_->Start(std::move(ctx));
}

Task<Status> Cluster::WaitForCacheSync(Context ctx) {
    return cache_->WaitForCacheSync(std::move(ctx));
}

}  // namespace ctrl::cluster
