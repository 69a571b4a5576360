#pragma once

#include <chrono>
#include <string>

#include "ctrl/core/status.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::testing {

// Waits until the API server lists the CRD's objects from its watch cache: a list without a limit
// (the path the server's own CRD finalizer takes) answers instead of 429 "storage is
// (re)initializing". A list with a limit, as kubectl sends, is served from etcd meanwhile and says
// nothing about the cache. An error names the CRD and what the server last answered.
Status WaitForCrdStorage(const std::string& kubeconfig, const std::string& crd_name,
                         std::chrono::steady_clock::duration timeout = kTestWait);

// Deletes a CRD and waits until the API server has removed it. The server's finalizer
// (customresourcecleanup) lists the CRD's objects before the CRD goes; a list that finds the
// watch cache still initializing fails, and the finalizer retries with an exponential backoff
// that has reached minutes on a loaded machine. So this waits for the cache first, and while the
// CRD reports InstanceDeletionFailed it annotates the CRD, an update that puts it back on the
// finalizer's queue at once. An error names the CRD and its conditions when the wait ended.
Status DeleteCrdAndWait(const std::string& kubeconfig, const std::string& crd_name,
                        std::chrono::steady_clock::duration timeout = std::chrono::seconds(180));

}  // namespace ctrl::testing
