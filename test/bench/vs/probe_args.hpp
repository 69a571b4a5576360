#pragma once

// The command line of ctrl-vs-probe (PROTOCOL.md): a scenario, the workload's layout and the
// scenario's own flags, checked against what the scenario accepts.

#include <map>
#include <optional>
#include <set>
#include <string>

#include "ctrl/core/status_or.hpp"
#include "test/support/workload.hpp"

namespace ctrl::bench::vs {

// One probe run's arguments: `<scenario> --kubeconfig PATH [--prefix P --namespaces N
// --pods-per-namespace M] [scenario flags]`. Flags are `--name value`, `--name=value` or, for the
// switches a scenario declares, `--name` alone.
struct ProbeArgs {
    std::string scenario;
    std::string kubeconfig;
    // The workload's layout (prefix "vs", 100 x 100 unless told).
    ctrl::testing::WorkloadOptions layout{};
    // The scenario's flags by name without the dashes; a switch maps to "true".
    std::map<std::string, std::string> flags;

    int Pods() const { return layout.namespaces * layout.pods_per_namespace; }
    bool Switch(const std::string& name) const { return flags.count(name) != 0; }
    // The flag's value as a number; fallback when absent. Parse already checked it is a number.
    double Number(const std::string& name, double fallback) const;
    // The flag's text ("" when absent): --out, --lease, --cert-dir and --configuration only; every
    // other flag is a number.
    std::string Text(const std::string& name) const { return flags.count(name) ? flags.at(name) : ""; }
};

// What a scenario accepts beyond the common flags: flags that take a value, and switches.
struct ScenarioFlags {
    std::set<std::string> values;
    std::set<std::string> switches;
};

// Parses argv[1..]: an error naming the flag or value at fault (exit 2 for the caller).
StatusOr<ProbeArgs> ParseProbeArgs(int argc, char** argv, const std::map<std::string, ScenarioFlags>& scenarios);

}  // namespace ctrl::bench::vs
