#include "test/support/crd_deletion.hpp"

#include <sstream>
#include <vector>

#include "test/support/kubectl.hpp"

namespace ctrl::testing {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// "/apis/GROUP/VERSION/PLURAL" of the CRD's first served version.
StatusOr<std::string> CrdListPath(const std::string& kubeconfig, const std::string& crd_name) {
    StatusOr<std::string> fields = KubectlOutput(kubeconfig, {"get", "crd", crd_name, "-o",
                                                              "jsonpath={.spec.group} {.spec.names.plural} "
                                                              "{.spec.versions[?(@.served==true)].name}"});
    if (!fields.Ok())
        return fields.GetStatus();
    std::istringstream words(*fields);
    std::string group, plural, version;
    if (!(words >> group >> plural >> version))
        return InternalError("crd/" + crd_name + " has no served version: \"" + *fields + "\"");
    return "/apis/" + group + "/" + version + "/" + plural;
}

}  // namespace

Status WaitForCrdStorage(const std::string& kubeconfig, const std::string& crd_name, Clock::duration timeout) {
    StatusOr<std::string> path = CrdListPath(kubeconfig, crd_name);
    if (!path.Ok())
        return path.GetStatus();
    Status last;
    const bool listed = Eventually(
        [&] {
            last = KubectlOutput(kubeconfig, {"get", "--raw", *path}).GetStatus();
            return last.Ok();
        },
        timeout, 200ms);
    if (listed)
        return OkStatus();
    return TimeoutError("crd/" + crd_name + ": GET " + *path + " still fails after the wait: " + last.ToString());
}

Status DeleteCrdAndWait(const std::string& kubeconfig, const std::string& crd_name, Clock::duration timeout) {
    const Clock::time_point deadline = Clock::now() + timeout;
    if (Status ready = WaitForCrdStorage(kubeconfig, crd_name, timeout); !ready.Ok())
        return ready;
    if (Status deleted = KubectlOutput(kubeconfig, {"delete", "crd", crd_name, "--wait=false"}).GetStatus();
        !deleted.Ok())
        return deleted;
    std::string conditions;
    Clock::time_point last_nudge = Clock::now();
    int nudges = 0;
    const bool gone = Eventually(
        [&] {
            StatusOr<CommandResult> got = Kubectl(kubeconfig, {"get", "crd", crd_name, "--ignore-not-found", "-o",
                                                               "jsonpath={.metadata.name} {.status.conditions}"});
            if (!got.Ok() || got->exit_code != 0)
                return false;
            if (got->out.empty())
                return true;
            conditions = got->out;
            if (conditions.find("InstanceDeletionFailed") != std::string::npos && Clock::now() - last_nudge > 1s) {
                last_nudge = Clock::now();
                (void)Kubectl(kubeconfig, {"annotate", "--overwrite", "crd", crd_name,
                                           "ctrl.test/retry-cleanup=" + std::to_string(++nudges)});
            }
            return false;
        },
        deadline - Clock::now(), 250ms);
    if (gone)
        return OkStatus();
    return TimeoutError("crd/" + crd_name + " was not deleted within the wait (" + std::to_string(nudges) +
                        " retries asked of the server's finalizer); its conditions: " + conditions);
}

}  // namespace ctrl::testing
