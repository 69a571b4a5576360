// client::New and client::NewForRestClient: the direct client with its defaults.
#include <utility>

#include "runtime/api/builtins.hpp"
#include "runtime/client/client.hpp"
#include "runtime/client/direct_client.hpp"
#include "runtime/discovery/discovery_client.hpp"
#include "runtime/discovery/lazy_rest_mapper.hpp"

namespace ctrl::client {
namespace {

// What the default mapper needs alive: the RestClient and discovery client it reads through.
struct MapperHolder {
    std::shared_ptr<rest::RestClient> rest;
    std::shared_ptr<discovery::DiscoveryClient> discovery;
    std::shared_ptr<discovery::LazyRESTMapper> mapper;
};

// A LazyRESTMapper over a discovery client of its own; the returned pointer keeps both alive.
std::shared_ptr<discovery::RESTMapper> NewLazyMapper(std::shared_ptr<rest::RestClient> rest,
                                                     metrics::Registry& registry) {
    auto holder = std::make_shared<MapperHolder>();
    holder->rest = std::move(rest);
    holder->discovery =
        std::make_shared<discovery::DiscoveryClient>(*holder->rest, discovery::DiscoveryOptions{}, registry);
    holder->mapper =
        std::make_shared<discovery::LazyRESTMapper>(holder->discovery, discovery::LazyRESTMapperOptions{}, registry);
    discovery::RESTMapper* mapper = holder->mapper.get();
    return std::shared_ptr<discovery::RESTMapper>(std::move(holder), mapper);
}

StatusOr<std::shared_ptr<const scheme::Scheme>> BuiltinScheme() {
    auto scheme = std::make_shared<scheme::Scheme>();
    CTRL_RETURN_IF_ERROR(api::AddAllBuiltinsToScheme(*scheme));
    return std::shared_ptr<const scheme::Scheme>(std::move(scheme));
}

}  // namespace

StatusOr<std::unique_ptr<Client>> NewForRestClient(std::shared_ptr<rest::RestClient> rest, Options options) {
    if (rest == nullptr)
        return BadRequestError("client::NewForRestClient: the RestClient is null");
    metrics::Registry& registry = options.registry != nullptr ? *options.registry : metrics::DefaultRegistry();
    std::shared_ptr<const scheme::Scheme> scheme = options.scheme;
    if (scheme == nullptr) {
        CTRL_ASSIGN_OR_RETURN(scheme, BuiltinScheme());
    }
    std::shared_ptr<discovery::RESTMapper> mapper = options.mapper;
    if (mapper == nullptr)
        mapper = NewLazyMapper(rest, registry);
    return std::unique_ptr<Client>(
        std::make_unique<DirectClient>(std::move(rest), std::move(scheme), std::move(mapper), std::move(options)));
}

StatusOr<std::unique_ptr<Client>> New(const rest::Config& config, boost::asio::any_io_executor executor,
                                      Options options) {
    metrics::Registry& registry = options.registry != nullptr ? *options.registry : metrics::DefaultRegistry();
    CTRL_ASSIGN_OR_RETURN(std::unique_ptr<rest::RestClient> rest, rest::RestClient::New(config, executor, registry));
    return NewForRestClient(std::shared_ptr<rest::RestClient>(std::move(rest)), std::move(options));
}

}  // namespace ctrl::client
