#include "runtime/api/security_group_policy.hpp"

#include "runtime/api/internal/fields.hpp"

namespace ctrl::api {

namespace {

using internal::Find;
using internal::JsonValue;

// nullopt when absent or null; the decoded spec when present; BadRequest when malformed (the
// message says what is wrong inside the selector).
StatusOr<std::optional<LabelSelectorSpec>> DecodeSelector(const Object& object, std::string_view field) {
    StatusOr<Object> value = object.NestedMap({"spec", field});
    if (IsNotFound(value.GetStatus()))
        return std::optional<LabelSelectorSpec>();
    if (!value.Ok()) {
        const JsonValue* raw = Find(object, {"spec", field});
        if (raw == nullptr)  // spec itself is not an object; the status says so
            return value.GetStatus();
        return BadRequestError("is " + std::string(ctrl::internal::JsonTypeName(*raw)) + ", not an object");
    }
    CTRL_ASSIGN_OR_RETURN(LabelSelectorSpec spec, LabelSelectorSpec::FromObject(*value));
    return std::optional<LabelSelectorSpec>(std::move(spec));
}

// DecodeSelector with the field named in the message: "spec.podSelector: ...".
StatusOr<std::optional<LabelSelectorSpec>> ReadSelector(const Object& object, std::string_view field) {
    StatusOr<std::optional<LabelSelectorSpec>> selector = DecodeSelector(object, field);
    if (!selector.Ok())
        return selector.GetStatus().Annotate("spec." + std::string(field));
    return selector;
}

void WriteSelector(Object& object, std::string_view field, const std::optional<LabelSelectorSpec>& selector) {
    if (!selector) {
        internal::Remove(object, {"spec", field});
        return;
    }
    auto& allocator = internal::Allocator(object);
    JsonValue out(rapidjson::kObjectType);
    if (!selector->match_labels.empty()) {
        JsonValue labels(rapidjson::kObjectType);
        for (const auto& [key, value] : selector->match_labels)
            internal::PutString(labels, key, value, allocator);
        ctrl::internal::SetJsonMember(out, "matchLabels", labels, allocator);
    }
    if (!selector->match_expressions.empty()) {
        JsonValue expressions(rapidjson::kArrayType);
        for (const LabelSelectorRequirement& requirement : selector->match_expressions) {
            JsonValue entry(rapidjson::kObjectType);
            internal::PutString(entry, "key", requirement.key, allocator);
            internal::PutString(entry, "operator", LabelSelectorOperatorName(requirement.op), allocator);
            if (!requirement.values.empty()) {
                JsonValue values(rapidjson::kArrayType);
                for (const std::string& v : requirement.values)
                    values.PushBack(ctrl::internal::MakeJsonString(v, allocator), allocator);
                ctrl::internal::SetJsonMember(entry, "values", values, allocator);
            }
            expressions.PushBack(entry, allocator);
        }
        ctrl::internal::SetJsonMember(out, "matchExpressions", expressions, allocator);
    }
    internal::SetValue(object, {"spec", field}, std::move(out));
}

}  // namespace

template <typename Self>
StatusOr<std::optional<LabelSelectorSpec>> SecurityGroupPolicyFields<Self>::PodSelector() const {
    return ReadSelector(Obj(), "podSelector");
}

template <typename Self>
StatusOr<std::optional<LabelSelectorSpec>> SecurityGroupPolicyFields<Self>::ServiceAccountSelector() const {
    return ReadSelector(Obj(), "serviceAccountSelector");
}

template <typename Self>
std::vector<std::string> SecurityGroupPolicyFields<Self>::GroupIds() const {
    return internal::Strings(Find(Obj(), {"spec", "securityGroups", "groupIds"}));
}

template <typename Self>
Status SecurityGroupPolicyFields<Self>::Validate() const {
    const Object& object = Obj();
    std::vector<StatusCause> causes;
    const auto invalid = [&](std::string field, std::string message) {
        causes.push_back(StatusCause{"FieldValueInvalid", std::move(message), std::move(field)});
    };
    const auto required = [&](std::string field, std::string message) {
        causes.push_back(StatusCause{"FieldValueRequired", std::move(message), std::move(field)});
    };

    const auto pod_selector = DecodeSelector(object, "podSelector");
    const auto sa_selector = DecodeSelector(object, "serviceAccountSelector");
    if (!pod_selector.Ok())
        invalid("spec.podSelector", pod_selector.GetStatus().Message());
    if (!sa_selector.Ok())
        invalid("spec.serviceAccountSelector", sa_selector.GetStatus().Message());
    const bool pod_absent = pod_selector.Ok() && !pod_selector->has_value();
    const bool sa_absent = sa_selector.Ok() && !sa_selector->has_value();
    if (pod_absent && sa_absent)
        required("spec", "at least one of podSelector and serviceAccountSelector is required");

    const JsonValue* group_ids = Find(object, {"spec", "securityGroups", "groupIds"});
    if (group_ids == nullptr) {
        required("spec.securityGroups.groupIds", "at least one security group id is required");
    } else if (!group_ids->IsArray()) {
        invalid("spec.securityGroups.groupIds",
                "is " + std::string(ctrl::internal::JsonTypeName(*group_ids)) + ", not an array");
    } else if (group_ids->Empty()) {
        required("spec.securityGroups.groupIds", "at least one security group id is required");
    } else {
        for (rapidjson::SizeType i = 0; i < group_ids->Size(); ++i) {
            if (!(*group_ids)[i].IsString()) {
                invalid("spec.securityGroups.groupIds[" + std::to_string(i) + "]",
                        "is " + std::string(ctrl::internal::JsonTypeName((*group_ids)[i])) + ", not a string");
            }
        }
    }

    if (causes.empty())
        return OkStatus();
    std::string message = "SecurityGroupPolicy " + object.Key().String() + " is invalid:";
    for (std::size_t i = 0; i < causes.size(); ++i)
        message += (i == 0 ? " " : "; ") + causes[i].field + ": " + causes[i].message;
    return InvalidError(std::move(message), std::move(causes));
}

template class SecurityGroupPolicyFields<SecurityGroupPolicy>;
template class SecurityGroupPolicyFields<SecurityGroupPolicyView>;

void SecurityGroupPolicy::SetPodSelector(const std::optional<LabelSelectorSpec>& selector) {
    WriteSelector(*this, "podSelector", selector);
}

void SecurityGroupPolicy::SetServiceAccountSelector(const std::optional<LabelSelectorSpec>& selector) {
    WriteSelector(*this, "serviceAccountSelector", selector);
}

void SecurityGroupPolicy::SetGroupIds(const std::vector<std::string>& group_ids) {
    internal::SetStrings(*this, {"spec", "securityGroups", "groupIds"}, group_ids);
}

}  // namespace ctrl::api
