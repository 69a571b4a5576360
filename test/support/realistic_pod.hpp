#pragma once

#include <cstdint>
#include <string>

namespace ctrl::testing {

// Pod number `pod` at resourceVersion `rv`, as a real API server sends it (compact JSON in Go's
// field order, ~7.8 KB of which ~3.3 KB managedFields from kube-controller-manager and kubelet):
// two containers with args, ports, env, probes, resources, volumeMounts and a security context;
// labels, annotations, an owner ReplicaSet, tolerations, five conditions and container statuses.
// 50 pods per ReplicaSet, 20 namespaces ("shop-0".."shop-19"), 40 nodes ("worker-0".."worker-39").
// Deterministic: the same arguments give the same bytes.
std::string RealisticPodJson(uint64_t pod, uint64_t rv, uint64_t restarts);

}  // namespace ctrl::testing
