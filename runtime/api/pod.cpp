#include "ctrl/api/pod.hpp"

#include "ctrl/api/internal/fields.hpp"
#include "ctrl/api/timestamp.hpp"

namespace ctrl::api {

namespace {

using internal::Find;
using internal::JsonValue;

std::optional<Timestamp> TimeAt(const JsonValue* from, std::string_view key) {
    const std::optional<std::string_view> text = internal::OptString(Find(from, {key}));
    return text ? ParseRfc3339(*text) : std::nullopt;
}

std::vector<Container> ReadContainers(const Object& pod, std::string_view field) {
    std::vector<Container> out;
    internal::ForEachObject(Find(pod, {"spec", field}), [&](const JsonValue& entry) {
        out.push_back(Container{internal::StringCopy(Find(&entry, {"name"})),
                                internal::StringCopy(Find(&entry, {"image"})),
                                internal::StringCopy(Find(&entry, {"restartPolicy"}))});
    });
    return out;
}

ContainerState ReadState(const JsonValue* state) {
    ContainerState out;
    if (const JsonValue* waiting = Find(state, {"waiting"}); waiting != nullptr && waiting->IsObject()) {
        out.waiting = ContainerStateWaiting{internal::StringCopy(Find(waiting, {"reason"})),
                                            internal::StringCopy(Find(waiting, {"message"}))};
    }
    if (const JsonValue* running = Find(state, {"running"}); running != nullptr && running->IsObject())
        out.running = ContainerStateRunning{TimeAt(running, "startedAt")};
    if (const JsonValue* terminated = Find(state, {"terminated"}); terminated != nullptr && terminated->IsObject()) {
        ContainerStateTerminated t;
        t.exit_code = internal::Int(Find(terminated, {"exitCode"}));
        t.signal = internal::Int(Find(terminated, {"signal"}));
        t.reason = internal::StringCopy(Find(terminated, {"reason"}));
        t.message = internal::StringCopy(Find(terminated, {"message"}));
        t.started_at = TimeAt(terminated, "startedAt");
        t.finished_at = TimeAt(terminated, "finishedAt");
        out.terminated = std::move(t);
    }
    return out;
}

std::vector<ContainerStatus> ReadContainerStatuses(const Object& pod, std::string_view field) {
    std::vector<ContainerStatus> out;
    internal::ForEachObject(Find(pod, {"status", field}), [&](const JsonValue& entry) {
        ContainerStatus status;
        status.name = internal::StringCopy(Find(&entry, {"name"}));
        status.image = internal::StringCopy(Find(&entry, {"image"}));
        status.ready = internal::Bool(Find(&entry, {"ready"}));
        status.restart_count = internal::Int(Find(&entry, {"restartCount"}));
        status.started = internal::OptBool(Find(&entry, {"started"}));
        status.state = ReadState(Find(&entry, {"state"}));
        status.last_state = ReadState(Find(&entry, {"lastState"}));
        out.push_back(std::move(status));
    });
    return out;
}

}  // namespace

template <typename Self>
std::string_view PodFields<Self>::NodeName() const {
    return internal::String(Find(Obj(), {"spec", "nodeName"}));
}

template <typename Self>
std::string_view PodFields<Self>::ServiceAccountName() const {
    std::string_view name = internal::String(Find(Obj(), {"spec", "serviceAccountName"}));
    if (name.empty())
        name = internal::String(Find(Obj(), {"spec", "serviceAccount"}));
    return name.empty() ? std::string_view("default") : name;
}

template <typename Self>
std::vector<Container> PodFields<Self>::Containers() const {
    return ReadContainers(Obj(), "containers");
}

template <typename Self>
std::vector<Container> PodFields<Self>::InitContainers() const {
    return ReadContainers(Obj(), "initContainers");
}

template <typename Self>
std::string_view PodFields<Self>::Phase() const {
    return internal::String(Find(Obj(), {"status", "phase"}));
}

template <typename Self>
std::string_view PodFields<Self>::Reason() const {
    return internal::String(Find(Obj(), {"status", "reason"}));
}

template <typename Self>
std::string_view PodFields<Self>::PodIp() const {
    return internal::String(Find(Obj(), {"status", "podIP"}));
}

template <typename Self>
std::vector<Condition> PodFields<Self>::Conditions() const {
    return ReadConditions(Obj(), {"status", "conditions"});
}

template <typename Self>
bool PodFields<Self>::IsReady() const {
    return IsConditionTrue(Conditions(), "Ready");
}

template <typename Self>
std::vector<ContainerStatus> PodFields<Self>::ContainerStatuses() const {
    return ReadContainerStatuses(Obj(), "containerStatuses");
}

template <typename Self>
std::vector<ContainerStatus> PodFields<Self>::InitContainerStatuses() const {
    return ReadContainerStatuses(Obj(), "initContainerStatuses");
}

template class PodFields<Pod>;
template class PodFields<PodView>;

void Pod::SetNodeName(std::string_view node_name) {
    internal::SetString(*this, {"spec", "nodeName"}, node_name);
}

void Pod::SetServiceAccountName(std::string_view name) {
    internal::SetString(*this, {"spec", "serviceAccountName"}, name);
}

void Pod::AddContainer(std::string_view name, std::string_view image) {
    auto& allocator = internal::Allocator(*this);
    JsonValue container(rapidjson::kObjectType);
    internal::PutString(container, "name", name, allocator);
    internal::PutString(container, "image", image, allocator);
    internal::Append(*this, {"spec", "containers"}, std::move(container));
}

void Pod::SetPhase(std::string_view phase) {
    internal::SetString(*this, {"status", "phase"}, phase);
}

}  // namespace ctrl::api
