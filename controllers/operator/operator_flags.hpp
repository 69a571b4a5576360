#pragma once

#include <string>
#include <vector>

#include "ctrl/core/status_or.hpp"
#include "ctrl/manager/flags.hpp"

namespace ctrl::op {

// The leader election Lease of ctrl-operator (controller-runtime's LeaderElectionID).
inline constexpr const char* kLeaderElectionId = "ctrl-operator.ctrl.example.com";

// ctrl-operator's command line: the manager's flags (manager::Flags, with the Lease id above) and
// its own:
//   --watch-namespaces a,b   the namespaces whose objects it watches; default: every namespace
//   --context NAME           the kubeconfig context; default: its current-context
//   --metrics-cert-path DIR  the directory of the metrics server's certificate and key (e.g. a
//                            mounted cert-manager Secret); default "": a self-signed certificate
//   --metrics-cert-name F    the certificate's file in it; default "tls.crt"
//   --metrics-cert-key F     the key's file in it; default "tls.key"
//   --webhook-cert-path DIR  serve the SecurityGroupPolicy webhooks with the certificate and key in
//                            DIR (reloaded when they change, e.g. a mounted cert-manager Secret)
//   --webhook-cert-name F, --webhook-cert-key F   their files in it; default "tls.crt", "tls.key"
//   --webhook-cert-secret NS/NAME   serve them with self-managed certificates kept in that Secret
//                            (webhook::CertRotator), the CA bundle injected into the operator's own
//                            webhook configurations (sgp::kValidatingWebhookConfiguration, ...)
//   --webhook-service NS/NAME       the webhook Service: the serving certificate's DNS names
//   --webhook-cert-ip IP[,IP...]    IP addresses of the serving certificate (repeatable)
//   Neither --webhook-cert-path nor --webhook-cert-secret: no webhooks; both: a flag error.
//   --webhook-port N         the webhook server's port; default 9443
//   --webhook-host H         the address it listens on; default "" (every address)
//   --shard-ring NAME        shard the pod controller (sgp-pods) over the replicas started with
//                            this ring name (shardedcontroller), instead of leader election; the
//                            policy-status controller stays leader-elected. Default "": not sharded
//   --shard-identity ID      this replica in the ring; default: $POD_NAME, else the host name
//   --shard-namespace NS     where the ring's Leases live; default: --leader-election-namespace,
//                            else the pod's namespace, else "default"
// --metrics-secure defaults to true in a cluster (the in-cluster config) and false otherwise:
// metrics_secure_given says whether the command line chose.
struct OperatorFlags {
    manager::Flags manager{};
    std::vector<std::string> watch_namespaces{};
    std::string context{};
    std::string metrics_cert_path{};
    std::string metrics_cert_name = "tls.crt";
    std::string metrics_cert_key = "tls.key";
    bool metrics_secure_given = false;
    std::string webhook_cert_path{};
    std::string webhook_cert_name = "tls.crt";
    std::string webhook_cert_key = "tls.key";
    // Self-managed certificates (--webhook-cert-secret): empty names when off.
    std::string webhook_cert_secret_namespace{};
    std::string webhook_cert_secret_name{};
    std::string webhook_service_namespace{};
    std::string webhook_service_name{};
    std::vector<std::string> webhook_cert_ips{};
    int webhook_port = 9443;
    std::string webhook_host{};
    std::string shard_ring{};
    std::string shard_identity{};
    std::string shard_namespace{};
};

// Whether the flags turn the webhooks on (--webhook-cert-path or --webhook-cert-secret).
bool ServesWebhooks(const OperatorFlags& flags);

// Parses argv (argc is updated as manager::ParseFlags does). BadRequest naming the flag (and the
// value) for an unknown flag, a bad value or flags that do not go together.
StatusOr<OperatorFlags> ParseOperatorFlags(int& argc, char** argv);

// The help text: usage line, the operator's flags and the manager's, with defaults.
std::string OperatorUsage();

}  // namespace ctrl::op
