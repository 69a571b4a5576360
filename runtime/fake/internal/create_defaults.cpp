#include "ctrl/fake/internal/create_defaults.hpp"

#include <map>
#include <string>
#include <vector>

namespace ctrl::fake::internal {
namespace {

// A pod's QoS class from its containers' resources: BestEffort without any request or limit,
// Guaranteed when every container limits cpu and memory with requests equal to the limits,
// Burstable otherwise.
std::string QosClass(const Object& pod) {
    StatusOr<std::vector<Object>> containers = pod.NestedSlice({"spec", "containers"});
    if (!containers.Ok() || containers->empty())
        return "BestEffort";
    bool any = false;
    bool guaranteed = true;
    for (const Object& container : *containers) {
        const auto requests =
            container.NestedStringMap({"resources", "requests"}).ValueOr(std::map<std::string, std::string>());
        const auto limits =
            container.NestedStringMap({"resources", "limits"}).ValueOr(std::map<std::string, std::string>());
        any = any || !requests.empty() || !limits.empty();
        for (const char* resource : {"cpu", "memory"}) {
            auto limit = limits.find(resource);
            auto request = requests.find(resource);
            if (limit == limits.end() || (request != requests.end() && request->second != limit->second))
                guaranteed = false;
        }
    }
    if (!any)
        return "BestEffort";
    return guaranteed ? "Guaranteed" : "Burstable";
}

}  // namespace

void SetCreateDefaults(const GroupVersionKind& gvk, Object& object) {
    if (!gvk.group.empty())
        return;
    if (gvk.kind == "Namespace") {
        (void)object.SetNestedString({"status", "phase"}, "Active");
        (void)object.SetNestedStringSlice({"spec", "finalizers"}, {"kubernetes"});
        object.SetLabel("kubernetes.io/metadata.name", object.Name());
    } else if (gvk.kind == "Pod") {
        object.RemoveNestedField({"status"});
        (void)object.SetNestedString({"status", "phase"}, "Pending");
        (void)object.SetNestedString({"status", "qosClass"}, QosClass(object));
    }
}

}  // namespace ctrl::fake::internal
