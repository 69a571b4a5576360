#pragma once

#include <memory>

#include "controllers/operator/operator_flags.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/rest/config.hpp"

namespace ctrl::op {

// Builds ctrl-operator's manager from its flags: a scheme with the built-in kinds and
// SecurityGroupPolicy, the manager's flags applied (leader election releases the Lease on a stop),
// the cache limited to --watch-namespaces, and its controllers added: the SecurityGroupPolicy
// watcher (sgp::AddToManager) and the pod-phase gauge (podlister::AddPodPhaseController). With
// --webhook-cert-path or --webhook-cert-secret also the SecurityGroupPolicy webhooks
// (sgp::AddWebhooksToManager), the latter with self-managed certificates (webhook::CertRotator).
StatusOr<std::unique_ptr<manager::Manager>> NewOperatorManager(const rest::Config& config, const OperatorFlags& flags);

}  // namespace ctrl::op
