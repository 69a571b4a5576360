#include "test/bench/vs/probe_kind.hpp"

#include "test/support/workload.hpp"

namespace ctrl::bench::vs {

bool OverServiceMonitors(const ProbeArgs& args) {
    return args.Switch("servicemonitors");
}

std::string ObjectName(const ProbeArgs& args, int index) {
    return OverServiceMonitors(args) ? ServiceMonitorName(index) : ctrl::testing::WorkloadPodName(args.layout, index);
}

StatusOr<std::shared_ptr<scheme::Scheme>> ProbeScheme(const ProbeArgs& args) {
    if (!OverServiceMonitors(args))
        return std::shared_ptr<scheme::Scheme>();
    return ServiceMonitorScheme();
}

}  // namespace ctrl::bench::vs
