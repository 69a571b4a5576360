#pragma once

#include <cstdint>
#include <string>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "ctrl/api/timestamp.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::sgp {

// The reasons of a policy's Ready condition.
inline constexpr const char* kReasonValid = "Valid";
inline constexpr const char* kReasonNoSelector = "NoSelector";
inline constexpr const char* kReasonNoGroupIds = "NoGroupIds";
inline constexpr const char* kReasonInvalidSelector = "InvalidSelector";
inline constexpr const char* kReasonInvalidGroupIds = "InvalidGroupIds";

// Whether a policy can apply and, when not, why: the Ready condition's reason and message.
struct PolicyVerdict {
    bool valid = true;
    std::string reason = kReasonValid;
    std::string message;
};

// Judges a policy by docs/sgp.md's rules: neither selector -> NoSelector; a selector that cannot be
// read or used (a bad operator, In without values) -> InvalidSelector; no groupIds -> NoGroupIds;
// a groupIds entry that is not a string -> InvalidGroupIds. The first problem found wins, in that
// order; the message names the field.
PolicyVerdict JudgePolicy(const vpcresources::SecurityGroupPolicyView& policy);

// What the watcher reports in a policy's status: status.observedGeneration, status.matchedPods (the
// pods of its namespace it selects; 0 when invalid) and the Ready condition (True "Valid", or False
// with the verdict's reason).
struct PolicyStatus {
    int64_t observed_generation = 0;
    int64_t matched_pods = 0;
    PolicyVerdict verdict;
};

// Writes status into policy (an object of the SecurityGroupPolicy kind), keeping the Ready
// condition's lastTransitionTime while its status stays (else now) and every other field of the
// object. Returns whether policy changed: false means no status write is needed.
StatusOr<bool> ApplyPolicyStatus(Object& policy, const PolicyStatus& status, api::Timestamp now);

}  // namespace ctrl::sgp
