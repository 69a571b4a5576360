#include "ctrl/envtest/binary_dir.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "ctrl/envtest/command.hpp"

#if !defined(CTRL_ENVTEST_KUBE_VERSION) || !defined(CTRL_ENVTEST_KUBE_FALLBACK_VERSIONS) || \
    !defined(CTRL_ENVTEST_ETCD_VERSION)
#error "runtime/envtest/CMakeLists.txt defines the pinned versions (hack/versions.env)"
#endif

namespace ctrl::envtest {
namespace {

constexpr char kSetupHint[] =
    "run ctrl-setup-envtest (hack/setup-envtest.sh in ctrl's source tree), which builds kube-apiserver and etcd "
    "from Go modules the first time and prints their directory, and point $CTRL_ENVTEST_BIN_DIR to it";

std::string Getenv(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

bool Executable(const std::string& path) {
    return access(path.c_str(), X_OK) == 0;
}

// The stamp ctrl-setup-envtest writes next to the binaries it built: "kube-apiserver=v1.X.Y etcd=v3.X.Y".
bool StampMatches(const std::string& dir, const std::string& kube_version) {
    std::ifstream in(dir + "/VERSIONS");
    std::string stamp;
    std::getline(in, stamp);
    return stamp == "kube-apiserver=" + kube_version + " etcd=" + Pinned().etcd;
}

StatusOr<std::string> RunSetupCommand(const std::vector<std::string>& command, std::chrono::milliseconds timeout) {
    auto result = RunCommand({.argv = command, .timeout = timeout, .inherit_stderr = true});
    if (!result.Ok())
        return result.GetStatus().Annotate("setting up the control plane binaries with " + command.front());
    if (result->exit_code != 0) {
        return UnavailableError(command.front() + " failed (exit " + std::to_string(result->exit_code) +
                                "); its messages are above");
    }
    std::string out = result->out;
    while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
        out.pop_back();
    return out.substr(out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
}

}  // namespace

const PinnedVersions& Pinned() {
    static const PinnedVersions kPinned = [] {
        PinnedVersions pinned{.kube_apiserver = CTRL_ENVTEST_KUBE_VERSION, .etcd = CTRL_ENVTEST_ETCD_VERSION};
        std::istringstream fallbacks(CTRL_ENVTEST_KUBE_FALLBACK_VERSIONS);
        for (std::string version; fallbacks >> version;)
            pinned.kube_apiserver_fallbacks.push_back(version);
        return pinned;
    }();
    return kPinned;
}

std::string CacheRoot() {
    std::string root = Getenv("CTRL_ENVTEST_CACHE");
    if (!root.empty())
        return root;
    return Getenv("HOME") + "/.cache/ctrl/envtest";
}

StatusOr<std::string> FindCachedBinaryDir() {
    std::vector<std::string> versions = {Pinned().kube_apiserver};
    versions.insert(versions.end(), Pinned().kube_apiserver_fallbacks.begin(), Pinned().kube_apiserver_fallbacks.end());
    std::string searched;
    for (const auto& version : versions) {
        std::string dir = CacheRoot() + "/" + version;
        if (Executable(dir + "/kube-apiserver") && Executable(dir + "/etcd") && StampMatches(dir, version))
            return dir;
        searched += (searched.empty() ? "" : ", ") + dir;
    }
    return NotFoundError("no kube-apiserver " + Pinned().kube_apiserver + " and etcd " + Pinned().etcd + " in " +
                         searched + " and $CTRL_ENVTEST_BIN_DIR is not set: " + kSetupHint);
}

StatusOr<std::string> ResolveBinaryDir(const std::string& binary_dir, const std::vector<std::string>& setup_command,
                                       std::chrono::milliseconds setup_timeout) {
    std::string dir = binary_dir;
    std::string source = "ControlPlane::Options::binary_dir";
    if (dir.empty() && !Getenv("CTRL_ENVTEST_BIN_DIR").empty()) {
        dir = Getenv("CTRL_ENVTEST_BIN_DIR");
        source = "$CTRL_ENVTEST_BIN_DIR";
    }
    if (dir.empty() && !setup_command.empty()) {
        CTRL_ASSIGN_OR_RETURN(dir, RunSetupCommand(setup_command, setup_timeout));
        source = "the output of " + setup_command.front();
    }
    if (dir.empty())
        return FindCachedBinaryDir();
    for (const char* binary : {"kube-apiserver", "etcd"}) {
        if (!Executable(dir + "/" + binary)) {
            return NotFoundError(std::string(binary) + " not found in " + dir + " (from " + source +
                                 "): " + kSetupHint);
        }
    }
    return dir;
}

}  // namespace ctrl::envtest
