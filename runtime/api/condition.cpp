#include "ctrl/api/condition.hpp"

#include <chrono>
#include <string>

#include "ctrl/api/internal/fields.hpp"
#include "ctrl/api/timestamp.hpp"

namespace ctrl::api {

std::vector<Condition> ReadConditions(const Object& object, FieldPath path) {
    std::vector<Condition> out;
    internal::ForEachObject(internal::Find(object, path), [&](const internal::JsonValue& entry) {
        Condition condition;
        condition.type = internal::StringCopy(internal::Find(&entry, {"type"}));
        condition.status = internal::StringCopy(internal::Find(&entry, {"status"}));
        condition.reason = internal::StringCopy(internal::Find(&entry, {"reason"}));
        condition.message = internal::StringCopy(internal::Find(&entry, {"message"}));
        if (auto time = internal::OptString(internal::Find(&entry, {"lastTransitionTime"})))
            condition.last_transition_time = ParseRfc3339(*time);
        condition.observed_generation = internal::OptInt(internal::Find(&entry, {"observedGeneration"}));
        out.push_back(std::move(condition));
    });
    return out;
}

std::optional<Condition> FindCondition(const std::vector<Condition>& conditions, std::string_view type) {
    for (const Condition& condition : conditions) {
        if (condition.type == type)
            return condition;
    }
    return std::nullopt;
}

bool IsConditionTrue(const std::vector<Condition>& conditions, std::string_view type) {
    const std::optional<Condition> condition = FindCondition(conditions, type);
    return condition.has_value() && condition->IsTrue();
}

bool SetStatusCondition(std::vector<Condition>& conditions, Condition condition, Timestamp now) {
    for (Condition& existing : conditions) {
        if (existing.type != condition.type)
            continue;
        if (existing.status == condition.status)
            condition.last_transition_time = existing.last_transition_time;
        else if (!condition.last_transition_time)
            condition.last_transition_time = std::chrono::floor<std::chrono::seconds>(now);
        if (existing == condition)
            return false;
        existing = std::move(condition);
        return true;
    }
    if (!condition.last_transition_time)
        condition.last_transition_time = std::chrono::floor<std::chrono::seconds>(now);
    conditions.push_back(std::move(condition));
    return true;
}

Status WriteConditions(Object& object, FieldPath path, const std::vector<Condition>& conditions) {
    std::string json = "[";
    for (const Condition& condition : conditions) {
        Object entry;
        CTRL_RETURN_IF_ERROR(entry.SetNestedString({"type"}, condition.type));
        CTRL_RETURN_IF_ERROR(entry.SetNestedString({"status"}, condition.status));
        if (condition.observed_generation)
            CTRL_RETURN_IF_ERROR(entry.SetNestedInt({"observedGeneration"}, *condition.observed_generation));
        if (condition.last_transition_time)
            CTRL_RETURN_IF_ERROR(
                entry.SetNestedString({"lastTransitionTime"}, FormatRfc3339(*condition.last_transition_time)));
        CTRL_RETURN_IF_ERROR(entry.SetNestedString({"reason"}, condition.reason));
        CTRL_RETURN_IF_ERROR(entry.SetNestedString({"message"}, condition.message));
        if (json.size() > 1)
            json += ",";
        json += entry.ToJson();
    }
    json += "]";
    CTRL_ASSIGN_OR_RETURN(Object array, Object::Parse(json));
    return object.SetNestedField(path, array);
}

}  // namespace ctrl::api
