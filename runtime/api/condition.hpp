#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/api/timestamp.hpp"
#include "ctrl/core/object.hpp"

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

// Puts condition into conditions as apimachinery's meta.SetStatusCondition does: appended when its
// type is new, else replacing the entry of its type in place. Its last_transition_time is kept from
// the old entry when the status did not change, else set to its own value or, when it has none,
// now (truncated to seconds, metav1.Time's precision). Returns whether conditions changed.
bool SetStatusCondition(std::vector<Condition>& conditions, Condition condition, Timestamp now);

// Writes conditions as the array at path (usually {"status", "conditions"}), replacing what was
// there, with metav1.Condition's field names; absent optional fields are left out.
Status WriteConditions(Object& object, FieldPath path, const std::vector<Condition>& conditions);

}  // namespace ctrl::api
