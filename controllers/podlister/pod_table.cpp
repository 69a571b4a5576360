#include "controllers/podlister/pod_table.hpp"

#include <algorithm>
#include <vector>

#include "ctrl/api/timestamp.hpp"

namespace ctrl::podlister {

using api::Condition;
using api::Container;
using api::ContainerStateTerminated;
using api::ContainerStatus;
using api::PodView;
using api::Timestamp;

namespace {

using std::chrono::duration_cast;
using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::seconds;

// Keeps the later of latest and candidate.
void KeepLatest(std::optional<Timestamp>& latest, const std::optional<Timestamp>& candidate) {
    if (candidate && (!latest || *latest < *candidate))
        latest = candidate;
}

std::optional<Timestamp> LastTerminationTime(const ContainerStatus& status) {
    return status.last_state.terminated ? status.last_state.terminated->finished_at : std::nullopt;
}

// "Init:OOMKilled", "Init:Signal:9", "Init:ExitCode:1" (prefix "Init:"), or without the prefix.
std::string TerminatedReason(const ContainerStateTerminated& terminated, std::string_view prefix) {
    if (!terminated.reason.empty())
        return std::string(prefix) + terminated.reason;
    if (terminated.signal != 0)
        return std::string(prefix) + "Signal:" + std::to_string(terminated.signal);
    return std::string(prefix) + "ExitCode:" + std::to_string(terminated.exit_code);
}

// Whether the init container of that name restarts always (a sidecar).
bool IsSidecar(const std::vector<Container>& init_containers, std::string_view name) {
    return std::any_of(init_containers.begin(), init_containers.end(),
                       [&](const Container& c) { return c.name == name && c.restart_policy == "Always"; });
}

}  // namespace

PodTableRow PodTableRowFor(PodView pod, Timestamp now) {
    PodTableRow row;
    const std::vector<Container> init_containers = pod.InitContainers();
    const std::vector<ContainerStatus> init_statuses = pod.InitContainerStatuses();
    const std::vector<ContainerStatus> statuses = pod.ContainerStatuses();
    const std::vector<Condition> conditions = pod.Conditions();
    const std::string_view phase = pod.Phase();

    int total = static_cast<int>(pod.Containers().size());
    int ready = 0;
    int64_t restarts = 0;
    int64_t sidecar_restarts = 0;
    std::optional<Timestamp> last_restart;
    std::optional<Timestamp> last_sidecar_restart;

    std::string reason(pod.Reason().empty() ? phase : pod.Reason());
    for (const Condition& condition : conditions) {
        if (condition.type == "PodScheduled" && condition.reason == "SchedulingGated")
            reason = "SchedulingGated";
    }
    for (const Container& container : init_containers) {
        if (container.restart_policy == "Always")
            ++total;
    }

    // Init containers run in order; the first one not done decides the status while initializing.
    bool initializing = false;
    for (std::size_t i = 0; i < init_statuses.size(); ++i) {
        const ContainerStatus& status = init_statuses[i];
        const bool sidecar = IsSidecar(init_containers, status.name);
        restarts += status.restart_count;
        KeepLatest(last_restart, LastTerminationTime(status));
        if (sidecar) {
            sidecar_restarts += status.restart_count;
            KeepLatest(last_sidecar_restart, LastTerminationTime(status));
        }
        const auto& terminated = status.state.terminated;
        const auto& waiting = status.state.waiting;
        if (terminated && terminated->exit_code == 0)
            continue;
        if (sidecar && status.started.value_or(false)) {
            if (status.ready)
                ++ready;
            continue;
        }
        if (terminated) {
            reason = TerminatedReason(*terminated, "Init:");
        } else if (waiting && !waiting->reason.empty() && waiting->reason != "PodInitializing") {
            reason = "Init:" + waiting->reason;
        } else {
            reason = "Init:" + std::to_string(i) + "/" + std::to_string(init_containers.size());
        }
        initializing = true;
        break;
    }

    if (!initializing || IsConditionTrue(conditions, "Initialized")) {
        restarts = sidecar_restarts;
        last_restart = last_sidecar_restart;
        bool has_running = false;
        // Walked from the last container so the first one's reason wins, as kubectl does.
        for (auto it = statuses.rbegin(); it != statuses.rend(); ++it) {
            restarts += it->restart_count;
            KeepLatest(last_restart, LastTerminationTime(*it));
            const auto& waiting = it->state.waiting;
            const auto& terminated = it->state.terminated;
            if (waiting && !waiting->reason.empty()) {
                reason = waiting->reason;
            } else if (terminated) {
                reason = TerminatedReason(*terminated, "");
            } else if (it->ready && it->state.running) {
                has_running = true;
                ++ready;
            }
        }
        if (reason == "Completed" && has_running)
            reason = IsConditionTrue(conditions, "Ready") ? "Running" : "NotReady";
    }

    if (pod.DeletionTimestamp().has_value()) {
        if (pod.Reason() == "NodeLost")
            reason = "Unknown";
        else if (phase != "Failed" && phase != "Succeeded")
            reason = "Terminating";
    }

    row.ready_containers = ready;
    row.total_containers = total;
    row.restart_count = restarts;
    row.ready = std::to_string(ready) + "/" + std::to_string(total);
    row.status = std::move(reason);
    row.restarts = std::to_string(restarts);
    if (restarts != 0 && last_restart)
        row.restarts += " (" + TimeSince(last_restart, now) + " ago)";
    row.age = TimeSince(CreationTime(pod.AsObject()), now);
    row.node = pod.NodeName().empty() ? "<none>" : std::string(pod.NodeName());
    return row;
}

std::string HumanDuration(std::chrono::nanoseconds duration) {
    const int64_t total_seconds = duration_cast<seconds>(duration).count();
    if (total_seconds < -1)
        return "<invalid>";
    if (total_seconds < 0)
        return "0s";
    if (total_seconds < 2 * 60)
        return std::to_string(total_seconds) + "s";
    const int64_t total_minutes = duration_cast<minutes>(duration).count();
    if (total_minutes < 10) {
        const int64_t s = total_seconds % 60;
        return std::to_string(total_minutes) + "m" + (s == 0 ? "" : std::to_string(s) + "s");
    }
    if (total_minutes < 3 * 60)
        return std::to_string(total_minutes) + "m";
    const int64_t total_hours = duration_cast<hours>(duration).count();
    if (total_hours < 8) {
        const int64_t m = total_minutes % 60;
        return std::to_string(total_hours) + "h" + (m == 0 ? "" : std::to_string(m) + "m");
    }
    if (total_hours < 48)
        return std::to_string(total_hours) + "h";
    const int64_t total_days = total_hours / 24;
    if (total_hours < 24 * 8) {
        const int64_t h = total_hours % 24;
        return std::to_string(total_days) + "d" + (h == 0 ? "" : std::to_string(h) + "h");
    }
    if (total_hours < 24 * 365 * 2)
        return std::to_string(total_days) + "d";
    const int64_t years = total_days / 365;
    if (total_hours < 24 * 365 * 8) {
        const int64_t d = total_days % 365;
        return std::to_string(years) + "y" + (d == 0 ? "" : std::to_string(d) + "d");
    }
    return std::to_string(years) + "y";
}

std::string TimeSince(std::optional<Timestamp> time, Timestamp now) {
    if (!time)
        return "<unknown>";
    return HumanDuration(duration_cast<std::chrono::nanoseconds>(now - *time));
}

std::optional<Timestamp> CreationTime(const Object& object) {
    const std::optional<std::string> text = object.CreationTimestamp();
    return text ? api::ParseRfc3339(*text) : std::nullopt;
}

}  // namespace ctrl::podlister
