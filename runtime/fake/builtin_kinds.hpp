#pragma once

#include <memory>
#include <set>
#include <vector>

#include "ctrl/core/gvk.hpp"
#include "ctrl/discovery/static_rest_mapper.hpp"
#include "ctrl/scheme/scheme.hpp"

namespace ctrl::fake {

// What the fake client knows of Kubernetes' built-in kinds without asking a server.

// Kinds the API server serves cluster-scoped: Namespace, Node, PersistentVolume,
// CustomResourceDefinition, ClusterRole(Binding), StorageClass, PriorityClass, webhook
// configurations, CertificateSigningRequest, ... Every other kind (a custom resource too) is namespaced unless
// the builder is told otherwise (ClientBuilder::WithClusterScoped).
const std::set<GroupKind>& ClusterScopedBuiltinKinds();
// Built-in kinds with a status subresource: Pod, Namespace, Node, Service, PersistentVolume(Claim),
// Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, CustomResourceDefinition, ...
const std::set<GroupKind>& StatusSubresourceBuiltinKinds();
// Built-in kinds whose metadata.generation the server keeps (Pod, the workload kinds, CRDs, ...).
const std::set<GroupKind>& GenerationBuiltinKinds();

// The built-in kinds a current API server serves, at their preferred version: core/v1, apps/v1,
// batch/v1, autoscaling/v2, policy/v1, networking, RBAC, storage, coordination, events,
// scheduling, node, certificates, admission registration, apiextensions and apiregistration.
const std::vector<GroupVersionKind>& BuiltinKinds();

// A mapper serving BuiltinKinds() and every object kind of scheme at the resource apimachinery
// guesses from the kind ("configmaps"; "endpoints" for Endpoints), cluster-scoped when
// ClusterScopedBuiltinKinds or cluster_scoped names it, namespaced otherwise.
std::shared_ptr<discovery::StaticRESTMapper> NewRESTMapperForScheme(const scheme::Scheme& scheme,
                                                                    const std::set<GroupKind>& cluster_scoped = {});

}  // namespace ctrl::fake
