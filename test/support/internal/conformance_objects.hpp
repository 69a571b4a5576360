#pragma once

// Objects and small helpers the client conformance cases share.

#include <chrono>
#include <map>
#include <set>
#include <string>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"

namespace ctrl::testing::internal {

// A context with a 30 s deadline.
inline Context CaseContext() {
    return Context::WithTimeout(Context::Background(), std::chrono::seconds(30));
}

api::ConfigMap NewConfigMap(const std::string& ns, const std::string& name,
                            const std::map<std::string, std::string>& labels = {},
                            const std::map<std::string, std::string>& data = {});
// A pod with containers "app" (env A=1, B=2) and "sidecar", busybox:1.36.
api::Pod NewPod(const std::string& ns, const std::string& name);
// A Widget with spec.color blue and spec.replicas 1.
Object NewWidget(const std::string& ns, const std::string& name);
std::set<std::string> Names(const ObjectList& list);
// The numeric value of a resourceVersion (0 when it is not a number).
uint64_t VersionNumber(std::string_view resource_version);

}  // namespace ctrl::testing::internal
