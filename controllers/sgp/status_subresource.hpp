#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include <ctrl/ctrl.hpp>

#include "ctrl/core/sleep.hpp"
#include "ctrl/discovery/discovery_client.hpp"
#include "ctrl/manager/runnable.hpp"
#include "ctrl/source/channel.hpp"

namespace ctrl::sgp {

// Whether the served SecurityGroupPolicy has a status subresource. The project's CRD
// (manifests/crd/) declares one; AWS's, as EKS installs it, has `subresources: {}`.
enum class StatusSubresource { kUnknown, kPresent, kAbsent };

// Finds out from the API group's discovery document (GET /apis/vpcresources.k8s.aws/v1beta1, one
// request: the resource "securitygrouppolicies/status" is listed or not) and remembers the answer.
// Says once in the log when the answer changes, and gives the readiness detail. Thread-safe.
class StatusSubresourceProbe final {
  public:
    StatusSubresourceProbe(std::shared_ptr<discovery::DiscoveryClient> discovery, log::Logger logger)
        : discovery_(std::move(discovery)), logger_(std::move(logger)) {}

    // The last answer; kUnknown before the first, and while the kind is not served.
    StatusSubresource Last() const { return last_.load(); }
    // Asks the server and returns the answer (kUnknown when the group version is not served). A
    // failure to ask keeps the last answer and is returned.
    Task<StatusOr<StatusSubresource>> Refresh(Context ctx);
    // The last answer, asking the server first when there is none.
    Task<StatusOr<StatusSubresource>> Get(Context ctx);
    // What the readiness check "sgp-status-subresource" adds to its "ok": the sentence saying that
    // policy state goes to Events and metrics when the subresource is absent, else "".
    std::string Detail() const;

  private:
    void Remember(StatusSubresource answer);

    const std::shared_ptr<discovery::DiscoveryClient> discovery_;
    const log::Logger logger_;
    std::atomic<StatusSubresource> last_{StatusSubresource::kUnknown};
};

// How often StatusSubresourceWatch asks discovery again: one GET of the group version each time.
inline constexpr std::chrono::seconds kStatusSubresourceRecheck{10};

// Notices a SecurityGroupPolicy CRD replaced by one with or without a status subresource while the
// operator runs: asks the probe again every `every` (on the leader only) and, when the answer
// changes, pushes one event to `changed`, which the sgp-status controller maps to every policy.
class StatusSubresourceWatch final : public manager::Runnable {
  public:
    StatusSubresourceWatch(std::shared_ptr<StatusSubresourceProbe> probe, std::shared_ptr<source::EventChannel> changed,
                           std::chrono::steady_clock::duration every = kStatusSubresourceRecheck)
        : probe_(std::move(probe)), changed_(std::move(changed)), every_(every) {}

    Task<Status> Run(Context ctx) override;
    std::string Name() const override { return "sgp-status-subresource"; }

  private:
    const std::shared_ptr<StatusSubresourceProbe> probe_;
    const std::shared_ptr<source::EventChannel> changed_;
    const std::chrono::steady_clock::duration every_;
};

// The sentence of Detail() and of the log line, when the subresource is absent.
inline constexpr const char* kStatusSubresourceAbsent =
    "SecurityGroupPolicy has no status subresource (its CRD declares none, as AWS's does): each policy's "
    "state is reported through Events (PolicyValid, PolicyInvalid) and the metric sgp_policy_valid, and no "
    "status is written";

}  // namespace ctrl::sgp
