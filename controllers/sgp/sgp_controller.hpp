#pragma once

#include <memory>
#include <optional>

#include <ctrl/ctrl.hpp>

#include "controllers/sgp/pod_reconciler.hpp"
#include "controllers/sgp/policy_status_reconciler.hpp"
#include "controllers/sgp/sgp_metrics.hpp"

namespace ctrl::sgp {

// The readiness check AddToManager adds: fails while SecurityGroupPolicy is not served.
inline constexpr const char* kKindServedCheck = "sgp-kind-served";
// The readiness check that always passes and, when SecurityGroupPolicy has no status subresource,
// says so in its detail ("[+]sgp-status-subresource ok: SecurityGroupPolicy has no status ...").
inline constexpr const char* kStatusSubresourceCheck = "sgp-status-subresource";

// What AddToManager wired, for the program and tests.
struct Watcher {
    std::shared_ptr<SgpMetrics> metrics;
    std::shared_ptr<PodReconciler> pods;
    std::shared_ptr<PolicyStatusReconciler> policies;
    // Whether SecurityGroupPolicy has a status subresource (it owns its discovery client).
    std::shared_ptr<StatusSubresourceProbe> status_subresource;
    // The source of SecurityGroupPolicy events of the pod controller: its Ready() says whether the
    // kind is served (OK), not served (NoMatch) or not known yet (anything else).
    std::shared_ptr<source::Source> policy_source;
};

// Adds the SecurityGroupPolicy watcher to mgr:
//  - controller "sgp-pods", For pods, also watching SecurityGroupPolicies (each enqueues every pod
//    of its namespace) and ServiceAccounts (each enqueues the pods of its namespace that run as
//    it), reconciling with PodReconciler;
//  - controller "sgp-status", For SecurityGroupPolicies, also watching pods and ServiceAccounts
//    (each enqueues the policies of its namespace) and the StatusSubresourceWatch's changes (each
//    enqueues every policy), reconciling with PolicyStatusReconciler: status written when the kind
//    has a status subresource, Events and metrics when not (AWS's CRD);
//  - the metrics of sgp_metrics.hpp, sgp_kind_served read from the policy source and
//    sgp_status_subresource from the probe at each scrape;
//  - the readiness check "sgp-kind-served", failing with the reason while the kind is not served
//    (passing on a replica that is not the leader: its controllers do not run), and
//    "sgp-status-subresource", passing, whose detail says when the subresource is absent.
// The policy kind may be missing at start: its sources wait for it, pods are reconciled without
// policies, and the kind is picked up within seconds of being served, without a restart. The scheme
// of mgr must know SecurityGroupPolicy (vpcresourcesv1beta1::AddToScheme).
//
// With pod_sharding, "sgp-pods" is sharded over a ring of replicas (builder::ShardedBy) instead of
// running on the leader only: each replica reconciles the pods of its buckets. Its cache is not
// narrowed (narrow_cache is forced false): "sgp-status", leader-elected, counts every pod.
StatusOr<Watcher> AddToManager(manager::Manager& mgr,
                               std::optional<shardedcontroller::Options> pod_sharding = std::nullopt);

}  // namespace ctrl::sgp
