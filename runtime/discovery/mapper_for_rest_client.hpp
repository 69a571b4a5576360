#pragma once

#include <memory>

#include "ctrl/discovery/discovery_client.hpp"
#include "ctrl/discovery/lazy_rest_mapper.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/rest_client.hpp"

namespace ctrl::discovery {

// A LazyRESTMapper over a DiscoveryClient of its own on rest. The returned pointer keeps the
// discovery client and rest alive as long as anyone holds the mapper, so a client, a cache and
// their running informers can share it without an ownership order.
std::shared_ptr<LazyRESTMapper> NewLazyRESTMapperFor(std::shared_ptr<rest::RestClient> rest,
                                                     DiscoveryOptions discovery_options,
                                                     LazyRESTMapperOptions mapper_options, metrics::Registry& registry);

}  // namespace ctrl::discovery
