// UninstallCRDs (crd_install.hpp): delete CRDs and wait until the server has let them go.

#include <chrono>
#include <memory>
#include <optional>

#include "ctrl/api/condition.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/client/patch.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/envtest/crd_install.hpp"
#include "ctrl/envtest/internal/installer_client.hpp"

namespace ctrl::envtest {
namespace {

using api::CustomResourceDefinition;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr std::string_view kRetryAnnotation = "envtest.ctrl.dev/cleanup-retry";

// Deletes the CRD named like crd, if there is one; deleted says whether it was there.
Task<Status> Delete(Context ctx, client::Client& client, const CustomResourceDefinition& crd, bool& deleted) {
    CustomResourceDefinition target;
    target.SetName(crd.Name());
    const Status removed = co_await client.Delete(ctx, target);
    deleted = !IsNotFound(removed);
    if (!removed.Ok() && deleted)
        co_return removed.Annotate("deleting CustomResourceDefinition " + std::string(crd.Name()));
    co_return OkStatus();
}

// A CRD on its way out, and what the last look at it saw.
struct Leaving {
    std::string name;
    bool gone = false;
    std::string seen = "still there";
    int retries = 0;
    std::optional<Clock::time_point> last_retry{};
};

// Whether the CRD is gone. While its finalizer reports a failed cleanup, asks it to try again at
// once (at most once a second): any update of the CRD puts it back on the finalizer's queue.
Task<bool> Gone(Context ctx, client::Client& client, Leaving& crd) {
    CustomResourceDefinition live;
    Status read = co_await client.Get(ctx, ObjectKey("", crd.name), live);
    if (IsNotFound(read))
        co_return true;
    if (!read.Ok()) {
        if (ctx.Err().Ok())  // a read cut short by the deadline keeps what the last one saw
            crd.seen = read.ToString();
        co_return false;
    }
    const std::optional<api::Condition> terminating = api::FindCondition(live.Conditions(), "Terminating");
    crd.seen = terminating ? "Terminating: " + terminating->reason + ", " + terminating->message : "still there";
    if (terminating && terminating->reason == "InstanceDeletionFailed" &&
        (!crd.last_retry || Clock::now() - *crd.last_retry >= 1s)) {
        crd.last_retry = Clock::now();
        const std::string patch = "{\"metadata\":{\"annotations\":{\"" + std::string(kRetryAnnotation) + "\":\"" +
                                  std::to_string(++crd.retries) + "\"}}}";
        (void)co_await client.Patch(ctx, live, client::RawPatch(client::PatchType::kMergePatch, patch));
    }
    co_return false;
}

Task<Status> UninstallAndWait(client::Client& client, const std::vector<CustomResourceDefinition>& crds,
                              const CRDInstallOptions& options) {
    const Context ctx = Context::WithTimeout(Context::Background(), options.max_time);
    std::vector<Leaving> leaving;
    for (const CustomResourceDefinition& crd : crds) {
        bool deleted = false;
        CTRL_CO_RETURN_IF_ERROR(co_await Delete(ctx, client, crd, deleted));
        if (deleted)
            leaving.push_back(Leaving{.name = std::string(crd.Name())});
    }
    for (;;) {
        std::string waiting;
        for (Leaving& crd : leaving) {
            if (!crd.gone)
                crd.gone = co_await Gone(ctx, client, crd);
            if (!crd.gone)
                waiting += (waiting.empty() ? "" : "; ") + crd.name + " (" + crd.seen + ", " +
                           std::to_string(crd.retries) + " cleanup retries asked)";
        }
        if (waiting.empty())
            co_return OkStatus();
        if (!(co_await SleepFor(ctx, options.poll_interval)).Ok())
            co_return TimeoutError("CustomResourceDefinitions not deleted within " +
                                   std::to_string(options.max_time.count()) + " ms: " + waiting);
    }
}

}  // namespace

Status UninstallCRDs(const rest::Config& config, const CRDInstallOptions& options) {
    CTRL_ASSIGN_OR_RETURN(std::vector<CustomResourceDefinition> crds, ReadCRDs(options));
    if (crds.empty())
        return OkStatus();
    CTRL_ASSIGN_OR_RETURN(std::unique_ptr<internal::InstallerClient> installer, internal::InstallerClient::New(config));
    return RunSync(installer->io, UninstallAndWait(*installer->client, crds, options));
}

}  // namespace ctrl::envtest
