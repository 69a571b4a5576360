#include "config_secret_status.hpp"

#include <utility>
#include <vector>

namespace configsecret {

namespace {

ctrl::api::Condition ReadyCondition(std::string_view status, std::string_view reason, std::string message) {
    ctrl::api::Condition condition;
    condition.type = "Ready";
    condition.status = std::string(status);
    condition.reason = std::string(reason);
    condition.message = std::move(message);
    return condition;
}

}  // namespace

ctrl::api::Condition Ready(std::string message) {
    return ReadyCondition("True", kReasonSynced, std::move(message));
}

ctrl::api::Condition NotReady(std::string_view reason, std::string message) {
    return ReadyCondition("False", reason, std::move(message));
}

bool ApplyStatus(examples::v1beta1::ConfigSecret& object, const SyncOutcome& outcome, ctrl::api::Timestamp now) {
    const ctrl::Object before = object.DeepCopy();
    const int64_t generation = object.Generation();
    examples::v1beta1::ConfigSecretStatusRef status = object.MutableStatus();
    status.SetObservedGeneration(generation);
    status.SetSecretName(outcome.secret_name);
    status.SetCopiedKeys(outcome.copied_keys);
    // metav1.Condition's rules (lastTransitionTime moves only with the status) are the runtime's.
    std::vector<ctrl::api::Condition> conditions = ctrl::api::ReadConditions(object, {"status", "conditions"});
    ctrl::api::Condition ready = outcome.condition;
    ready.observed_generation = generation;
    ctrl::api::SetStatusCondition(conditions, std::move(ready), now);
    if (!ctrl::api::WriteConditions(object, {"status", "conditions"}, conditions).Ok())
        return false;
    return !(static_cast<const ctrl::Object&>(object) == before);
}

}  // namespace configsecret
