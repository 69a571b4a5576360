#include "ctrl/discovery/mapper_for_rest_client.hpp"

#include <utility>

namespace ctrl::discovery {
namespace {

// What the mapper needs alive: the RestClient and the discovery client it reads through.
struct MapperHolder {
    std::shared_ptr<rest::RestClient> rest;
    std::shared_ptr<DiscoveryClient> discovery;
    std::shared_ptr<LazyRESTMapper> mapper;
};

}  // namespace

std::shared_ptr<LazyRESTMapper> NewLazyRESTMapperFor(std::shared_ptr<rest::RestClient> rest,
                                                     DiscoveryOptions discovery_options,
                                                     LazyRESTMapperOptions mapper_options,
                                                     metrics::Registry& registry) {
    auto holder = std::make_shared<MapperHolder>();
    holder->rest = std::move(rest);
    holder->discovery = std::make_shared<DiscoveryClient>(*holder->rest, std::move(discovery_options), registry);
    holder->mapper = std::make_shared<LazyRESTMapper>(holder->discovery, std::move(mapper_options), registry);
    LazyRESTMapper* mapper = holder->mapper.get();
    return std::shared_ptr<LazyRESTMapper>(std::move(holder), mapper);
}

}  // namespace ctrl::discovery
