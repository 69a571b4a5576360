#include "runtime/api/condition.hpp"

#include "runtime/api/internal/fields.hpp"
#include "runtime/api/internal/rfc3339.hpp"

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
            condition.last_transition_time = internal::ParseRfc3339(*time);
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

}  // namespace ctrl::api
