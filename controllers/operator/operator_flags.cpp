#include "controllers/operator/operator_flags.hpp"

#include <charconv>

#include <optional>
#include <string_view>

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

}  // namespace

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
        bool taken = false;
        for (const auto& [name, target] : {std::pair<std::string_view, std::string*>{"context", &flags.context},
                                           {"metrics-cert-path", &flags.metrics_cert_path},
                                           {"metrics-cert-name", &flags.metrics_cert_name},
                                           {"metrics-cert-key", &flags.metrics_cert_key},
                                           {"webhook-cert-path", &flags.webhook_cert_path},
                                           {"webhook-cert-name", &flags.webhook_cert_name},
                                           {"webhook-cert-key", &flags.webhook_cert_key},
                                           {"webhook-host", &flags.webhook_host}}) {
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
           "  --webhook-cert-path DIR  serve the SecurityGroupPolicy validating and defaulting webhooks with the\n"
           "                           certificate and key in DIR, reloaded when they change (default \"\": no\n"
           "                           webhooks)\n"
           "  --webhook-cert-name F    the certificate's file in --webhook-cert-path (default \"tls.crt\")\n"
           "  --webhook-cert-key F     the key's file in --webhook-cert-path (default \"tls.key\")\n"
           "  --webhook-port N         the webhook server's port (default 9443)\n"
           "  --webhook-host H         the address the webhook server listens on (default \"\": every address)\n" +
           manager::FlagsUsage(Defaults()) +
           "--metrics-secure defaults to true when running in a cluster (the in-cluster config).\n";
}

}  // namespace ctrl::op
