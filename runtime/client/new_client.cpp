// client::New and client::NewForRestClient: the direct client with its defaults.
#include <utility>

#include "ctrl/api/builtins.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/client/direct_client.hpp"
#include "ctrl/discovery/mapper_for_rest_client.hpp"

namespace ctrl::client {
namespace {

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
        mapper = discovery::NewLazyRESTMapperFor(rest, discovery::DiscoveryOptions{},
                                                 discovery::LazyRESTMapperOptions{}, registry);
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
