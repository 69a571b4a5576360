#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/api/timestamp.hpp"
#include "runtime/core/object.hpp"

namespace ctrl::api {

// One entry of a status.conditions array: metav1.Condition, and the kind-specific shapes that
// share its fields (PodCondition, CustomResourceDefinitionCondition, NamespaceCondition).
struct Condition {
    std::string type;    // "Ready", "Established", ...
    std::string status;  // "True", "False" or "Unknown"
    std::string reason;
    std::string message;
    std::optional<Timestamp> last_transition_time;
    std::optional<int64_t> observed_generation;

    bool IsTrue() const { return status == "True"; }
    bool operator==(const Condition&) const = default;
};

// The conditions in the array at path (usually {"status", "conditions"}), in order. Entries that
// are not objects are skipped; missing fields read as empty.
std::vector<Condition> ReadConditions(const Object& object, FieldPath path);
// The condition of that type, if any.
std::optional<Condition> FindCondition(const std::vector<Condition>& conditions, std::string_view type);
// Whether the condition of that type is there with status "True".
bool IsConditionTrue(const std::vector<Condition>& conditions, std::string_view type);

}  // namespace ctrl::api
