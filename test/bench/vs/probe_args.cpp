#include "test/bench/vs/probe_args.hpp"

#include <cstdlib>
#include <string_view>

namespace ctrl::bench::vs {
namespace {

std::optional<double> ParseNumber(const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0')
        return std::nullopt;
    return value;
}

// The flags whose value is text, not a number.
bool IsTextFlag(const std::string& name) {
    return name == "out" || name == "lease" || name == "cert-dir" || name == "configuration";
}

}  // namespace

double ProbeArgs::Number(const std::string& name, double fallback) const {
    auto it = flags.find(name);
    if (it == flags.end())
        return fallback;
    return ParseNumber(it->second).value_or(fallback);
}

StatusOr<ProbeArgs> ParseProbeArgs(int argc, char** argv, const std::map<std::string, ScenarioFlags>& scenarios) {
    if (argc < 2)
        return Status(StatusCode::kBadRequest, "no scenario given");
    ProbeArgs args;
    args.scenario = argv[1];
    args.layout.prefix = "vs";
    args.layout.namespaces = 100;
    args.layout.pods_per_namespace = 100;
    auto known = scenarios.find(args.scenario);
    if (known == scenarios.end())
        return Status(StatusCode::kBadRequest, "unknown scenario \"" + args.scenario + "\"");
    const ScenarioFlags& accepted = known->second;
    for (int i = 2; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg.substr(0, 2) != "--")
            return Status(StatusCode::kBadRequest, "unexpected argument \"" + std::string(arg) + "\"");
        std::string name(arg.substr(2));
        std::optional<std::string> value;
        if (size_t eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        if (accepted.switches.count(name)) {
            if (value)
                return Status(StatusCode::kBadRequest, "--" + name + " takes no value");
            args.flags[name] = "true";
            continue;
        }
        const bool common =
            name == "kubeconfig" || name == "prefix" || name == "namespaces" || name == "pods-per-namespace";
        if (!common && !accepted.values.count(name))
            return Status(StatusCode::kBadRequest, "scenario " + args.scenario + " does not take --" + name);
        if (!value) {
            if (i + 1 >= argc)
                return Status(StatusCode::kBadRequest, "--" + name + " needs a value");
            value = argv[++i];
        }
        if (name == "kubeconfig") {
            args.kubeconfig = *value;
        } else if (name == "prefix") {
            args.layout.prefix = *value;
        } else if (name == "namespaces" || name == "pods-per-namespace") {
            std::optional<double> count = ParseNumber(*value);
            if (!count || *count < 1 || *count > 1e6 || *count != static_cast<int>(*count))
                return Status(StatusCode::kBadRequest, "--" + name + " " + *value + ": not a count");
            (name == "namespaces" ? args.layout.namespaces : args.layout.pods_per_namespace) = static_cast<int>(*count);
        } else {
            if (!IsTextFlag(name) && !ParseNumber(*value))
                return Status(StatusCode::kBadRequest, "--" + name + " " + *value + ": not a number");
            args.flags[name] = *value;
        }
    }
    if (args.kubeconfig.empty() && args.scenario != "queue")
        return Status(StatusCode::kBadRequest, "--kubeconfig is required");
    return args;
}

}  // namespace ctrl::bench::vs
