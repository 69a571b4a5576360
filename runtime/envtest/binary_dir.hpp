#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::envtest {

// The control plane versions this build of ctrl was tested with (hack/versions.env):
// ctrl-setup-envtest builds these, and FindCachedBinaryDir looks for them.
struct PinnedVersions {
    std::string kube_apiserver{};                         // "v1.37.2"
    std::vector<std::string> kube_apiserver_fallbacks{};  // older releases tried when it does not build
    std::string etcd{};                                   // "v3.6.16"
};
const PinnedVersions& Pinned();

// Where ctrl-setup-envtest caches what it builds: $CTRL_ENVTEST_CACHE, else ~/.cache/ctrl/envtest.
std::string CacheRoot();

// The directory ctrl-setup-envtest printed for the pinned versions, when it already ran: the first
// of <CacheRoot()>/<kube-apiserver version> (pinned, then its fallbacks) that holds both binaries
// built for those versions. NotFound, naming the directories searched and the command to run, when
// none does.
StatusOr<std::string> FindCachedBinaryDir();

// Where to find kube-apiserver and etcd, the first that is set of: `binary_dir`,
// $CTRL_ENVTEST_BIN_DIR, the last line `setup_command` prints (run with `setup_timeout`; its
// stderr goes to ours), FindCachedBinaryDir(). NotFound naming the directory and the missing
// binary, with what to run, when either is missing or not executable there.
StatusOr<std::string> ResolveBinaryDir(const std::string& binary_dir, const std::vector<std::string>& setup_command,
                                       std::chrono::milliseconds setup_timeout);

}  // namespace ctrl::envtest
