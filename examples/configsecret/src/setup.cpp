#include <memory>
#include <string>
#include <vector>

#include "config_secret_reconciler.hpp"
#include "configsecret_api/config_secret_v1beta1.hpp"

namespace configsecret {

ctrl::Status SetupWithManager(ctrl::Manager& mgr) {
    const std::string field(kConfigMapNameField);
    CTRL_RETURN_IF_ERROR(mgr.IndexField<examples::v1beta1::ConfigSecret>(field, [](const ctrl::Object& object) {
        const examples::v1beta1::ConfigSecretView config_secret(object);
        return std::vector<std::string>{config_secret.Spec().Source().ConfigMap()};
    }));

    // A ConfigMap's events concern the ConfigSecrets of its namespace that name it. The lambda
    // captures field by copy, so it is named before it is passed (a temporary one does not compile).
    const ctrl::cache::Cache& cache = mgr.GetCache();
    const auto users_of = [&cache, field](const ctrl::Context&, const ctrl::Object& config_map) {
        std::vector<ctrl::Request> requests;
        auto users = cache.ListSharedNow<examples::v1beta1::ConfigSecret>(
            ctrl::client::InNamespace(std::string(config_map.Namespace())),
            ctrl::client::MatchingFields(field, std::string(config_map.Name())));
        if (!users.Ok())
            return requests;  // not synced yet: its initial list enqueues every ConfigSecret
        for (const std::shared_ptr<const ctrl::Object>& user : *users)
            requests.emplace_back(std::string(user->Namespace()), std::string(user->Name()));
        return requests;
    };
    auto config_map_to_users = ctrl::handler::EnqueueRequestsFromMapFunc(users_of);
    auto reconciler = std::make_shared<ConfigSecretReconciler>(mgr.GetClient(), mgr.GetScheme(),
                                                               mgr.GetEventRecorderFor("configsecret-controller"));
    return ctrl::NewControllerManagedBy(mgr)
        .For<examples::v1beta1::ConfigSecret>()
        .Owns<ctrl::api::Secret>()
        .Watches<ctrl::api::ConfigMap>(config_map_to_users)
        .Complete(reconciler);
}

}  // namespace configsecret
