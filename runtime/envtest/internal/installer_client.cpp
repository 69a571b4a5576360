#include "ctrl/envtest/internal/installer_client.hpp"

#include <string>
#include <utility>

namespace ctrl::envtest::internal {

StatusOr<std::unique_ptr<InstallerClient>> InstallerClient::New(const rest::Config& config) {
    auto installer = std::make_unique<InstallerClient>();
    CTRL_ASSIGN_OR_RETURN(std::unique_ptr<rest::RestClient> owned,
                          rest::RestClient::New(config, installer->io.get_executor(), installer->registry));
    installer->rest = std::move(owned);
    client::Options client_options;
    client_options.registry = &installer->registry;
    CTRL_ASSIGN_OR_RETURN(installer->client, client::NewForRestClient(installer->rest, client_options));
    return installer;
}

Task<Status> CreateOrUpdate(Context ctx, client::Client& client, Object& object) {
    Status created = co_await client.Create(ctx, object);
    if (!IsAlreadyExists(created))
        co_return created;
    Object existing;
    existing.SetApiVersion(object.ApiVersion());
    existing.SetKind(object.Kind());
    CTRL_CO_RETURN_IF_ERROR(
        co_await client.Get(ctx, ObjectKey(std::string(object.Namespace()), std::string(object.Name())), existing));
    object.SetResourceVersion(existing.ResourceVersion());
    co_return co_await client.Update(ctx, object);
}

}  // namespace ctrl::envtest::internal
