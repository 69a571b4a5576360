#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "ctrl/api/pod.hpp"
#include "ctrl/api/timestamp.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::podlister {

// The columns `kubectl get pods -A` prints for a pod, computed by kubectl's rules (its printPod),
// so a program's table matches kubectl's row for row.
struct PodTableRow {
    // READY "x/y": ready containers / containers (sidecar init containers count in both).
    std::string ready;
    // STATUS: the phase, or a more telling reason: a container's waiting or terminated reason
    // ("CrashLoopBackOff", "Completed", "Error"), "Init:1/3" / "Init:<reason>" while initializing,
    // "SchedulingGated", "NotReady", "Terminating" (deletionTimestamp set and the phase not
    // terminal), "Unknown" (being deleted on a lost node).
    std::string status;
    // RESTARTS: "0", or "5 (3m12s ago)" when the last restart's time is known.
    std::string restarts;
    // AGE from metadata.creationTimestamp ("<unknown>" without one).
    std::string age;
    // NODE: spec.nodeName, or "<none>".
    std::string node;

    int ready_containers = 0;
    int total_containers = 0;
    int64_t restart_count = 0;
};

// The row for pod, with ages measured at now.
PodTableRow PodTableRowFor(api::PodView pod, api::Timestamp now);

// A duration as kubectl prints ages (apimachinery's duration.HumanDuration): "45s", "119s",
// "2m5s", "15m", "4h30m", "13h", "3d2h", "45d", "2y30d", "9y"; "0s" for up to 1s in the future
// (clock skew), "<invalid>" beyond that.
std::string HumanDuration(std::chrono::nanoseconds duration);
// HumanDuration(now - time), or "<unknown>" when there is no time (kubectl's
// translateTimestampSince).
std::string TimeSince(std::optional<api::Timestamp> time, api::Timestamp now);
// metadata.creationTimestamp, parsed; nullopt when missing or malformed.
std::optional<api::Timestamp> CreationTime(const Object& object);

}  // namespace ctrl::podlister
