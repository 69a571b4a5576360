#include <cstdio>

#include "test/bench/vs/scenarios.hpp"

namespace ctrl::bench::vs {

// SCAFFOLD: replaced by the scenario's implementation (PROTOCOL.md) before issue 16 lands.
int RunIdle(const ProbeArgs& args) {
    std::fprintf(stderr, "ctrl-vs-probe: scenario %s is not built yet\n", args.scenario.c_str());
    return 2;
}

}  // namespace ctrl::bench::vs
