#pragma once

// The kind the object scenarios (sync, reads, reconcile, idle) read (PROTOCOL.md): the workload's
// pods, or with --servicemonitors the ServiceMonitors of custom-objects, through the kind ctrl-gen
// generated from their CRD. A scenario is a template over one of the two traits below.

#include <memory>
#include <string>
#include <string_view>

#include "ctrl/api/pod.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/scheme/scheme.hpp"
#include "test/bench/servicemonitor_workload.hpp"
#include "test/bench/vs/probe_args.hpp"

namespace ctrl::bench::vs {

// The workload's pods: pod-0000 .. in each namespace, built-in, read in protobuf by default.
struct PodKind {
    using Type = api::Pod;
    using List = api::PodList;
    static constexpr std::string_view kNamePrefix = "pod-";
    static constexpr std::string_view kWhat = "pods";
};

// custom-objects' ServiceMonitors: sm-0000 .. in each namespace, a custom resource (JSON).
struct ServiceMonitorKind {
    using Type = ServiceMonitor;
    using List = ServiceMonitorList;
    static constexpr std::string_view kNamePrefix = "sm-";
    static constexpr std::string_view kWhat = "servicemonitors";
};

// Whether args ask for the ServiceMonitors (--servicemonitors) instead of the pods.
bool OverServiceMonitors(const ProbeArgs& args);

// The name of the index-th object of a namespace: pod-%04d or sm-%04d.
std::string ObjectName(const ProbeArgs& args, int index);

// The scheme the probe's clients and caches use: null for pods (each library's default, the
// built-in kinds), the built-in kinds and ServiceMonitor with --servicemonitors.
StatusOr<std::shared_ptr<scheme::Scheme>> ProbeScheme(const ProbeArgs& args);

// Calls run<PodKind>() or run<ServiceMonitorKind>() as args ask.
template <typename Run>
int ForKind(const ProbeArgs& args, Run run) {
    return OverServiceMonitors(args) ? run.template operator()<ServiceMonitorKind>()
                                     : run.template operator()<PodKind>();
}

}  // namespace ctrl::bench::vs
