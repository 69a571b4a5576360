#include "controllers/operator/operator_manager.hpp"

#include <unistd.h>

#include <cstdlib>
#include <optional>

#include "controllers/podlister/pod_phase_controller.hpp"
#include "controllers/sgp/api/vpcresources.hpp"
#include "controllers/sgp/policy_webhook.hpp"
#include "controllers/sgp/sgp_controller.hpp"
#include "ctrl/api/builtins.hpp"
#include "ctrl/manager/in_cluster_namespace.hpp"

namespace ctrl::op {
namespace {

// The pod controller's ring (--shard-ring), its identity and Lease namespace resolved as the flags say.
std::optional<shardedcontroller::Options> PodSharding(manager::Manager& mgr, const OperatorFlags& flags) {
    if (flags.shard_ring.empty())
        return std::nullopt;
    shardedcontroller::Options sharding;
    sharding.ring.ring = flags.shard_ring;
    sharding.ring.identity = flags.shard_identity;
    if (sharding.ring.identity.empty()) {
        const char* pod = std::getenv("POD_NAME");
        char host[256] = {};
        sharding.ring.identity = pod != nullptr && *pod != '\0'            ? pod
                                 : gethostname(host, sizeof host - 1) == 0 ? host
                                                                           : "ctrl-operator";
    }
    sharding.ring.namespace_name = flags.shard_namespace;
    if (sharding.ring.namespace_name.empty())
        sharding.ring.namespace_name = flags.manager.leader_election_namespace;
    if (sharding.ring.namespace_name.empty())
        sharding.ring.namespace_name = manager::InClusterNamespace().ValueOr("default");
    sharding.ring.registry = &mgr.GetMetricsRegistry();
    sharding.client = &mgr.GetAPIReader();
    return sharding;
}

}  // namespace

StatusOr<std::unique_ptr<manager::Manager>> NewOperatorManager(const rest::Config& config, const OperatorFlags& flags) {
    auto scheme = std::make_shared<scheme::Scheme>();
    CTRL_RETURN_IF_ERROR(api::AddAllBuiltinsToScheme(*scheme));
    CTRL_RETURN_IF_ERROR(vpcresources::vpcresourcesv1beta1::AddToScheme(*scheme));

    manager::Options options;
    options.scheme = scheme;
    manager::ApplyFlags(flags.manager, options);
    // A stopped leader hands over at once instead of after the Lease expires.
    options.leader_election.release_on_cancel = true;
    options.cache.default_namespaces = flags.watch_namespaces;
    if (!flags.metrics_cert_path.empty()) {
        options.metrics.cert_file = flags.metrics_cert_path + "/" + flags.metrics_cert_name;
        options.metrics.key_file = flags.metrics_cert_path + "/" + flags.metrics_cert_key;
    }

    const bool webhooks = ServesWebhooks(flags);
    options.webhook.port = webhooks ? flags.webhook_port : -1;
    options.webhook.host = flags.webhook_host;
    options.webhook.cert_dir = flags.webhook_cert_path;
    options.webhook.cert_name = flags.webhook_cert_name;
    options.webhook.key_name = flags.webhook_cert_key;
    if (!flags.webhook_cert_secret_name.empty()) {
        webhook::CertRotatorOptions certificates;
        certificates.secret_namespace = flags.webhook_cert_secret_namespace;
        certificates.secret_name = flags.webhook_cert_secret_name;
        if (!flags.webhook_service_name.empty()) {
            const std::string service = flags.webhook_service_name + "." + flags.webhook_service_namespace + ".svc";
            certificates.dns_names = {service, service + ".cluster.local"};
        }
        certificates.ips = flags.webhook_cert_ips;
        certificates.validating_webhooks = {sgp::kValidatingWebhookConfiguration};
        certificates.mutating_webhooks = {sgp::kMutatingWebhookConfiguration};
        options.webhook_certificates = std::move(certificates);
    }

    CTRL_ASSIGN_OR_RETURN(std::unique_ptr<manager::Manager> mgr, manager::New(config, std::move(options)));
    if (webhooks)
        CTRL_RETURN_IF_ERROR(sgp::AddWebhooksToManager(*mgr).Annotate("adding the SecurityGroupPolicy webhooks"));
    CTRL_RETURN_IF_ERROR(sgp::AddToManager(*mgr, PodSharding(*mgr, flags))
                             .GetStatus()
                             .Annotate("adding the SecurityGroupPolicy watcher"));
    CTRL_RETURN_IF_ERROR(podlister::AddPodPhaseController(*mgr).Annotate("adding the pod-phase controller"));
    return mgr;
}

}  // namespace ctrl::op
