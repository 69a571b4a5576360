#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <ctrl/ctrl.hpp>

namespace configsecret {

// What the Secret of a ConfigSecret holds, from the keys its spec asks for and the ConfigMap.
struct SecretContent {
    std::map<std::string, std::string> data;  // Secret key -> bytes
    std::vector<std::string> missing_keys;    // asked for, absent from the ConfigMap, in spec order
};

// The ConfigMap's data under keys (every data key when keys is nullopt). binaryData is not copied.
SecretContent ComputeSecretContent(const std::optional<std::vector<std::string>>& keys,
                                   const ctrl::api::ConfigMap& config_map);

// The annotation a ConfigMap carries while ConfigSecrets read it: their names, sorted, comma-separated.
// It is the "external state" the example's finalizer cleans up.
inline constexpr std::string_view kUsedByAnnotation = "examples.ctrl.dev/used-by";

// The names in object's used-by annotation.
std::set<std::string> UsedBy(const ctrl::Object& object);
// Writes names as the annotation (removes it when empty); returns whether it changed.
bool SetUsedBy(ctrl::Object& object, const std::set<std::string>& names);

}  // namespace configsecret
