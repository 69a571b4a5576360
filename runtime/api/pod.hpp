#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/api/condition.hpp"
#include "ctrl/api/timestamp.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/scheme/object_view.hpp"
#include "ctrl/scheme/typed_list.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::api {

// An entry of spec.containers or spec.initContainers: the fields the runtime reads.
struct Container {
    std::string name;
    std::string image;
    std::string restart_policy;  // init containers only; "Always" makes one a sidecar

    bool operator==(const Container&) const = default;
};

struct ContainerStateWaiting {
    std::string reason;  // "ContainerCreating", "CrashLoopBackOff", "ImagePullBackOff", ...
    std::string message;
};
struct ContainerStateRunning {
    std::optional<Timestamp> started_at;
};
struct ContainerStateTerminated {
    int64_t exit_code = 0;
    int64_t signal = 0;
    std::string reason;  // "Completed", "Error", "OOMKilled", ...
    std::string message;
    std::optional<Timestamp> started_at;
    std::optional<Timestamp> finished_at;
};
// A container's state (core/v1 ContainerState): one of the three is set, or none while unknown.
struct ContainerState {
    std::optional<ContainerStateWaiting> waiting;
    std::optional<ContainerStateRunning> running;
    std::optional<ContainerStateTerminated> terminated;
};

// An entry of status.containerStatuses or status.initContainerStatuses.
struct ContainerStatus {
    std::string name;
    std::string image;
    bool ready = false;
    int64_t restart_count = 0;
    std::optional<bool> started;
    ContainerState state;
    ContainerState last_state;  // lastState: the previous termination, after a restart
};

// The read accessors of a Pod, shared by Pod (which owns its object) and PodView (which does not).
// Missing fields, or fields of another type, read as empty.
template <typename Self>
class PodFields {
  public:
    // spec.nodeName: the node the pod is bound to; empty while it is not scheduled.
    std::string_view NodeName() const;
    // spec.serviceAccountName, else the deprecated spec.serviceAccount, else "default" (what the
    // ServiceAccount admission plugin would set).
    std::string_view ServiceAccountName() const;
    std::vector<Container> Containers() const;
    std::vector<Container> InitContainers() const;
    // status.phase: "Pending", "Running", "Succeeded", "Failed", "Unknown"; empty when unreported.
    std::string_view Phase() const;
    // status.reason: why the pod is in this state ("Evicted", "NodeLost"); usually empty.
    std::string_view Reason() const;
    std::string_view PodIp() const;
    std::vector<Condition> Conditions() const;
    // Whether the Ready condition is True.
    bool IsReady() const;
    std::vector<ContainerStatus> ContainerStatuses() const;
    std::vector<ContainerStatus> InitContainerStatuses() const;

  private:
    const Object& Obj() const { return static_cast<const Self&>(*this).AsObject(); }
};

class PodView;

// core/v1 Pod. Owns its object; every field the accessors do not name survives a round trip.
class Pod final : public scheme::TypedObjectBase<Pod>, public PodFields<Pod> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"", "v1", "Pod"};
    static constexpr std::string_view kListKind = "PodList";
    using View = PodView;
    using TypedObjectBase::TypedObjectBase;

    void SetNodeName(std::string_view node_name);
    void SetServiceAccountName(std::string_view name);
    // Appends {"name", "image"} to spec.containers.
    void AddContainer(std::string_view name, std::string_view image);
    void SetPhase(std::string_view phase);
};

// A read-only Pod view of an object owned elsewhere (see scheme::ObjectView for the lifetime rule).
class PodView final : public scheme::ObjectView, public PodFields<PodView> {
  public:
    explicit PodView(const Object& object) : ObjectView(object) {}
    PodView(const Pod& pod) : ObjectView(pod) {}  // NOLINT(google-explicit-constructor)
    PodView(Pod&&) = delete;                      // would dangle
};

using PodList = scheme::TypedList<Pod>;

extern template class PodFields<Pod>;
extern template class PodFields<PodView>;

}  // namespace ctrl::api
