#include "controllers/operator/operator_flags.hpp"

#include <arpa/inet.h>

#include <charconv>
#include <optional>
#include <string_view>

#include "controllers/sgp/policy_webhook.hpp"

namespace ctrl::op {
namespace {

manager::Flags Defaults() {
    manager::Flags defaults;
    defaults.leader_election_id = kLeaderElectionId;
    // A standby replica keeps its informers synced: failover costs no relist (--enable-warmup=false).
    defaults.enable_warmup = true;
    return defaults;
}

// Whether argv sets --metrics-secure (any spelling manager::ParseFlags accepts).
bool GivesMetricsSecure(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "--")
            return false;
        if (!arg.starts_with('-'))
            continue;
        arg.remove_prefix(arg.starts_with("--") ? 2 : 1);
        if (arg == "metrics-secure" || arg.starts_with("metrics-secure="))
            return true;
    }
    return false;
}

// The value of flag `name` at argv[i] ("--name=v" or "--name v", one dash too); nullopt when argv[i]
// is another argument. Advances i past a separate value.
StatusOr<std::optional<std::string>> FlagValue(std::string_view name, int& i, int argc, char** argv) {
    std::string_view arg = argv[i];
    if (!arg.starts_with('-'))
        return std::optional<std::string>();
    arg.remove_prefix(arg.starts_with("--") ? 2 : 1);
    if (arg.starts_with(name) && arg.size() > name.size() && arg[name.size()] == '=')
        return std::optional<std::string>(std::string(arg.substr(name.size() + 1)));
    if (arg != name)
        return std::optional<std::string>();
    if (i + 1 >= argc)
        return BadRequestError("flag --" + std::string(name) + " needs a value");
    return std::optional<std::string>(std::string(argv[++i]));
}

// "a,b,,c" -> {"a", "b", "c"}.
std::vector<std::string> SplitList(std::string_view list) {
    std::vector<std::string> items;
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        const std::string_view item = list.substr(0, comma);
        if (!item.empty())
            items.emplace_back(item);
        if (comma == std::string_view::npos)
            break;
        list.remove_prefix(comma + 1);
    }
    return items;
}

// A DNS-1123 label ("ctrl-system"): lower-case letters, digits and '-', alphanumeric at both ends,
// at most 63 characters.
bool IsDnsLabel(std::string_view text) {
    if (text.empty() || text.size() > 63 || text.front() == '-' || text.back() == '-')
        return false;
    for (const char c : text) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            return false;
    }
    return true;
}

// A DNS-1123 subdomain (a Secret's name): labels joined by '.', at most 253 characters.
bool IsDnsSubdomain(std::string_view text) {
    if (text.empty() || text.size() > 253)
        return false;
    for (std::size_t dot; (dot = text.find('.')) != std::string_view::npos; text.remove_prefix(dot + 1)) {
        if (!IsDnsLabel(text.substr(0, dot)))
            return false;
    }
    return IsDnsLabel(text);
}

// "NAMESPACE/NAME" of flag --name into namespace_name and object_name; BadRequest naming the flag
// and the value otherwise. subdomain: the name may be a DNS subdomain (a Secret), not only a label.
Status ParseObjectRef(std::string_view flag, const std::string& value, bool subdomain, std::string& namespace_name,
                      std::string& object_name) {
    const std::size_t slash = value.find('/');
    const std::string_view ns = std::string_view(value).substr(0, slash);
    const std::string_view name =
        slash == std::string::npos ? std::string_view() : std::string_view(value).substr(slash + 1);
    const std::string bad = "flag --" + std::string(flag) + ": \"" + value + "\" ";
    if (slash == std::string::npos || name.find('/') != std::string_view::npos)
        return BadRequestError(bad + "is not NAMESPACE/NAME");
    if (!IsDnsLabel(ns))
        return BadRequestError(bad + "names no valid namespace (lower-case letters, digits and '-')");
    if (!(subdomain ? IsDnsSubdomain(name) : IsDnsLabel(name)))
        return BadRequestError(bad + "names no valid object (lower-case letters, digits" +
                               (subdomain ? ", '-' and '.')" : " and '-')"));
    namespace_name = std::string(ns);
    object_name = std::string(name);
    return OkStatus();
}

// The webhook flags that go together: files or a Secret, not both; a Secret's certificate needs a
// name; the Service and IPs mean nothing without a Secret.
Status CheckWebhookFlags(const OperatorFlags& flags) {
    const bool secret = !flags.webhook_cert_secret_name.empty();
    if (secret && !flags.webhook_cert_path.empty())
        return BadRequestError("flags --webhook-cert-path \"" + flags.webhook_cert_path +
                               "\" and --webhook-cert-secret \"" + flags.webhook_cert_secret_namespace + "/" +
                               flags.webhook_cert_secret_name +
                               "\" exclude each other: serve the webhooks with mounted files or with self-managed "
                               "certificates, not both");
    if (secret && flags.webhook_service_name.empty() && flags.webhook_cert_ips.empty())
        return BadRequestError(
            "flag --webhook-cert-secret needs the serving certificate's names: give "
            "--webhook-service NAMESPACE/NAME or --webhook-cert-ip IP");
    if (!secret && !flags.webhook_service_name.empty())
        return BadRequestError(
            "flag --webhook-service is for self-managed certificates: give --webhook-cert-secret too");
    if (!secret && !flags.webhook_cert_ips.empty())
        return BadRequestError(
            "flag --webhook-cert-ip is for self-managed certificates: give --webhook-cert-secret too");
    return OkStatus();
}

// The ring's name and namespace are DNS labels; identity and namespace mean nothing without a ring.
Status CheckShardFlags(const OperatorFlags& flags) {
    if (flags.shard_ring.empty()) {
        if (!flags.shard_identity.empty() || !flags.shard_namespace.empty())
            return BadRequestError("flags --shard-identity and --shard-namespace need --shard-ring");
        return OkStatus();
    }
    if (!IsDnsLabel(flags.shard_ring) || flags.shard_ring.size() > 46)
        return BadRequestError("flag --shard-ring: \"" + flags.shard_ring +
                               "\" is not a ring name (lower-case letters, digits and '-', at most 46 characters: its "
                               "members' Leases are named <ring>-<16 hex digits>)");
    if (!flags.shard_namespace.empty() && !IsDnsLabel(flags.shard_namespace))
        return BadRequestError("flag --shard-namespace: \"" + flags.shard_namespace + "\" is not a namespace");
    return OkStatus();
}

}  // namespace

bool ServesWebhooks(const OperatorFlags& flags) {
    return !flags.webhook_cert_path.empty() || !flags.webhook_cert_secret_name.empty();
}

StatusOr<OperatorFlags> ParseOperatorFlags(int& argc, char** argv) {
    OperatorFlags flags;
    flags.metrics_secure_given = GivesMetricsSecure(argc, argv);
    CTRL_ASSIGN_OR_RETURN(flags.manager, manager::ParseFlags(argc, argv, Defaults()));
    for (int i = 1; i < argc; ++i) {
        CTRL_ASSIGN_OR_RETURN(std::optional<std::string> namespaces, FlagValue("watch-namespaces", i, argc, argv));
        if (namespaces) {
            flags.watch_namespaces = SplitList(*namespaces);
            if (flags.watch_namespaces.empty())
                return BadRequestError("flag --watch-namespaces: no namespace in \"" + *namespaces + "\"");
            continue;
        }
        CTRL_ASSIGN_OR_RETURN(std::optional<std::string> port, FlagValue("webhook-port", i, argc, argv));
        if (port) {
            int value = -1;
            const auto [end, error] = std::from_chars(port->data(), port->data() + port->size(), value);
            if (error != std::errc() || end != port->data() + port->size() || value < 0 || value > 65535)
                return BadRequestError("flag --webhook-port: \"" + *port + "\" is not a port (0-65535)");
            flags.webhook_port = value;
            continue;
        }
        CTRL_ASSIGN_OR_RETURN(std::optional<std::string> secret, FlagValue("webhook-cert-secret", i, argc, argv));
        if (secret) {
            CTRL_RETURN_IF_ERROR(ParseObjectRef("webhook-cert-secret", *secret, true,
                                                flags.webhook_cert_secret_namespace, flags.webhook_cert_secret_name));
            continue;
        }
        CTRL_ASSIGN_OR_RETURN(std::optional<std::string> service, FlagValue("webhook-service", i, argc, argv));
        if (service) {
            CTRL_RETURN_IF_ERROR(ParseObjectRef("webhook-service", *service, false, flags.webhook_service_namespace,
                                                flags.webhook_service_name));
            continue;
        }
        CTRL_ASSIGN_OR_RETURN(std::optional<std::string> ips, FlagValue("webhook-cert-ip", i, argc, argv));
        if (ips) {
            const std::vector<std::string> listed = SplitList(*ips);
            if (listed.empty())
                return BadRequestError("flag --webhook-cert-ip: no IP address in \"" + *ips + "\"");
            for (const std::string& ip : listed) {
                unsigned char address[16];
                if (inet_pton(AF_INET, ip.c_str(), address) != 1 && inet_pton(AF_INET6, ip.c_str(), address) != 1)
                    return BadRequestError("flag --webhook-cert-ip: \"" + ip + "\" is not an IPv4 or IPv6 address");
                flags.webhook_cert_ips.push_back(ip);
            }
            continue;
        }
        bool taken = false;
        for (const auto& [name, target] : {std::pair<std::string_view, std::string*>{"context", &flags.context},
                                           {"metrics-cert-path", &flags.metrics_cert_path},
                                           {"metrics-cert-name", &flags.metrics_cert_name},
                                           {"metrics-cert-key", &flags.metrics_cert_key},
                                           {"webhook-cert-path", &flags.webhook_cert_path},
                                           {"webhook-cert-name", &flags.webhook_cert_name},
                                           {"webhook-cert-key", &flags.webhook_cert_key},
                                           {"webhook-host", &flags.webhook_host},
                                           {"shard-ring", &flags.shard_ring},
                                           {"shard-identity", &flags.shard_identity},
                                           {"shard-namespace", &flags.shard_namespace}}) {
            CTRL_ASSIGN_OR_RETURN(std::optional<std::string> value, FlagValue(name, i, argc, argv));
            if (value) {
                *target = *value;
                taken = true;
                break;
            }
        }
        if (taken)
            continue;
        return BadRequestError("unknown argument \"" + std::string(argv[i]) + "\" (see --help)");
    }
    CTRL_RETURN_IF_ERROR(CheckWebhookFlags(flags));
    CTRL_RETURN_IF_ERROR(CheckShardFlags(flags));
    return flags;
}

std::string OperatorUsage() {
    return "Usage: ctrl-operator [flags]\n"
           "The sample operator: the SecurityGroupPolicy watcher (annotates each pod with its security\n"
           "groups, keeps each policy's status) and the pod-phase controller, with metrics.\n\n"
           "  --watch-namespaces NS[,NS...]\n"
           "                           watch only these namespaces (default: every namespace)\n"
           "  --context NAME           the kubeconfig context (default: its current-context)\n"
           "  --metrics-cert-path DIR  the directory of the metrics server's certificate and key (default \"\":\n"
           "                           a self-signed certificate made at start)\n"
           "  --metrics-cert-name F    the certificate's file in --metrics-cert-path (default \"tls.crt\")\n"
           "  --metrics-cert-key F     the key's file in --metrics-cert-path (default \"tls.key\")\n"
           "  --webhook-cert-secret NAMESPACE/NAME\n"
           "                           serve the SecurityGroupPolicy validating and defaulting webhooks with\n"
           "                           self-managed certificates: a CA and a serving certificate kept (and\n"
           "                           rotated) in this Secret, the CA bundle injected into the webhook\n"
           "                           configurations " +
           std::string(sgp::kValidatingWebhookConfiguration) + " and " + sgp::kMutatingWebhookConfiguration +
           "\n"
           "  --webhook-service NAMESPACE/NAME\n"
           "                           the webhook Service: the serving certificate is for NAME.NAMESPACE.svc\n"
           "                           and NAME.NAMESPACE.svc.cluster.local\n"
           "  --webhook-cert-ip IP[,IP...]\n"
           "                           IP addresses in the serving certificate, e.g. 127.0.0.1 for an API server\n"
           "                           calling the webhooks by URL (repeatable)\n"
           "  --webhook-cert-path DIR  instead of --webhook-cert-secret: serve the webhooks with the certificate\n"
           "                           and key in DIR (e.g. a mounted cert-manager Secret), reloaded when they\n"
           "                           change. Neither flag: no webhooks\n"
           "  --webhook-cert-name F    the certificate's file in --webhook-cert-path (default \"tls.crt\")\n"
           "  --webhook-cert-key F     the key's file in --webhook-cert-path (default \"tls.key\")\n"
           "  --webhook-port N         the webhook server's port (default 9443)\n"
           "  --webhook-host H         the address the webhook server listens on (default \"\": every address)\n"
           "  --shard-ring NAME        shard the pod controller over the replicas started with this ring (each\n"
           "                           reconciles the pods of its buckets; no leader election for it); the\n"
           "                           policy-status controller stays leader-elected (default \"\": not sharded)\n"
           "  --shard-identity ID      this replica in the ring (default: $POD_NAME, else the host name)\n"
           "  --shard-namespace NS     the namespace of the ring's Leases (default: --leader-election-namespace,\n"
           "                           else the pod's namespace, else \"default\")\n" +
           manager::FlagsUsage(Defaults()) +
           "--metrics-secure defaults to true when running in a cluster (the in-cluster config).\n";
}

}  // namespace ctrl::op
