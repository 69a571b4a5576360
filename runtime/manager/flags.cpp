#include "ctrl/manager/flags.hpp"

#include <optional>
#include <string_view>
#include <utility>

namespace ctrl::manager {
namespace {

// "--name=value" -> (name, value); "--name" -> (name, nullopt); nullopt for a non-flag.
std::optional<std::pair<std::string_view, std::optional<std::string_view>>> SplitFlag(std::string_view arg) {
    if (arg.size() < 2 || arg[0] != '-')
        return std::nullopt;
    arg.remove_prefix(arg[1] == '-' ? 2 : 1);
    const std::size_t eq = arg.find('=');
    if (eq == std::string_view::npos)
        return std::make_pair(arg, std::optional<std::string_view>());
    return std::make_pair(arg.substr(0, eq), std::optional<std::string_view>(arg.substr(eq + 1)));
}

StatusOr<bool> ParseBool(std::string_view flag, std::string_view value) {
    if (value == "true" || value == "1" || value == "t" || value == "T" || value == "TRUE" || value == "True")
        return true;
    if (value == "false" || value == "0" || value == "f" || value == "F" || value == "FALSE" || value == "False")
        return false;
    return BadRequestError("flag --" + std::string(flag) + ": \"" + std::string(value) + "\" is not a boolean");
}

std::string* StringFlag(Flags& flags, std::string_view name) {
    if (name == "kubeconfig")
        return &flags.kubeconfig;
    if (name == "metrics-bind-address")
        return &flags.metrics_bind_address;
    if (name == "health-probe-bind-address")
        return &flags.health_probe_bind_address;
    if (name == "leader-election-id")
        return &flags.leader_election_id;
    if (name == "leader-election-namespace")
        return &flags.leader_election_namespace;
    return nullptr;
}

bool* BoolFlag(Flags& flags, std::string_view name) {
    if (name == "leader-elect")
        return &flags.leader_elect;
    if (name == "metrics-secure")
        return &flags.metrics_secure;
    if (name == "enable-warmup")
        return &flags.enable_warmup;
    if (name == "help" || name == "h")
        return &flags.help;
    return nullptr;
}

}  // namespace

StatusOr<Flags> ParseFlags(int& argc, char** argv, Flags defaults) {
    Flags flags = std::move(defaults);
    CTRL_ASSIGN_OR_RETURN(flags.log, log::ParseLogFlags(argc, argv));
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--") {
            while (i < argc)
                argv[kept++] = argv[i++];
            break;
        }
        const auto flag = SplitFlag(arg);
        if (!flag) {
            argv[kept++] = argv[i];
            continue;
        }
        const auto& [name, inline_value] = *flag;
        if (std::string* target = StringFlag(flags, name)) {
            if (inline_value) {
                *target = std::string(*inline_value);
            } else if (i + 1 < argc) {
                *target = argv[++i];
            } else {
                return BadRequestError("flag --" + std::string(name) + " needs a value");
            }
        } else if (bool* target = BoolFlag(flags, name)) {
            if (inline_value) {
                CTRL_ASSIGN_OR_RETURN(*target, ParseBool(name, *inline_value));
            } else {
                *target = true;
            }
        } else {
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    return flags;
}

std::string FlagsUsage(const Flags& defaults) {
    const auto quoted = [](const std::string& s) { return s.empty() ? std::string("none") : "\"" + s + "\""; };
    const auto boolean = [](bool b) { return std::string(b ? "true" : "false"); };
    std::string usage;
    usage +=
        "  --kubeconfig PATH        the kubeconfig to use (default: --kubeconfig, $KUBECONFIG, in-cluster, "
        "~/.kube/config, in controller-runtime's order)\n";
    usage +=
        "  --metrics-bind-address ADDR\n                           where /metrics is served; \"0\" disables "
        "(default " +
        quoted(defaults.metrics_bind_address) + ")\n";
    usage +=
        "  --health-probe-bind-address ADDR\n                           where /healthz and /readyz are "
        "served; \"0\" disables (default " +
        quoted(defaults.health_probe_bind_address) + ")\n";
    usage += "  --leader-elect           elect a leader with a Lease before running controllers (default " +
             boolean(defaults.leader_elect) + ")\n";
    usage += "  --leader-election-id ID  the Lease's name (default " + quoted(defaults.leader_election_id) + ")\n";
    usage += "  --leader-election-namespace NS\n                           the Lease's namespace (default " +
             (defaults.leader_election_namespace.empty() ? std::string("the pod's namespace")
                                                         : quoted(defaults.leader_election_namespace)) +
             ")\n";
    usage +=
        "  --metrics-secure         serve /metrics over HTTPS, allowing only tokens with get on /metrics "
        "(default " +
        boolean(defaults.metrics_secure) + ")\n";
    usage +=
        "  --enable-warmup          with --leader-elect, start the controllers' informers before election "
        "(a warm standby) (default " +
        boolean(defaults.enable_warmup) + ")\n";
    usage += log::LogFlagsUsage();
    usage += "  -h, --help               this help\n";
    return usage;
}

void ApplyFlags(const Flags& flags, Options& options) {
    options.metrics.bind_address = flags.metrics_bind_address;
    options.metrics.secure = flags.metrics_secure;
    options.health_probe_bind_address = flags.health_probe_bind_address;
    options.leader_election.enabled = flags.leader_elect;
    options.controller.enable_warmup = flags.enable_warmup;
    if (!flags.leader_election_id.empty())
        options.leader_election.id = flags.leader_election_id;
    if (!flags.leader_election_namespace.empty())
        options.leader_election.namespace_name = flags.leader_election_namespace;
    log::Configure(flags.log);
}

}  // namespace ctrl::manager
