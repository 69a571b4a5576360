#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <ctrl/ctrl.hpp>

#include "configsecret_api/config_secret_v1beta1.hpp"

namespace configsecret {

// The Ready condition's reasons.
inline constexpr std::string_view kReasonSynced = "Synced";
inline constexpr std::string_view kReasonConfigMapNotFound = "ConfigMapNotFound";
inline constexpr std::string_view kReasonKeysMissing = "KeysMissing";

// What one reconcile found and did, for the status.
struct SyncOutcome {
    ctrl::api::Condition condition{};  // the Ready condition
    std::string secret_name{};
    int64_t copied_keys = 0;
};

ctrl::api::Condition Ready(std::string message);
ctrl::api::Condition NotReady(std::string_view reason, std::string message);

// Writes outcome into object's status (observedGeneration, secretName, copiedKeys, the Ready
// condition, whose lastTransitionTime changes only with its status); returns whether it changed.
bool ApplyStatus(examples::v1beta1::ConfigSecret& object, const SyncOutcome& outcome, ctrl::api::Timestamp now);

}  // namespace configsecret
