#include "controllers/sgp/status_subresource.hpp"

#include "controllers/sgp/api/security_group_policy.hpp"

namespace ctrl::sgp {
namespace {

constexpr const char* kStatusResource = "securitygrouppolicies/status";

bool ListsStatus(const discovery::GroupVersionResources& served) {
    for (const discovery::APIResource& resource : served.resources) {
        if (resource.name == kStatusResource)
            return true;
    }
    return false;
}

}  // namespace

Task<StatusOr<StatusSubresource>> StatusSubresourceProbe::Refresh(Context ctx) {
    const GroupVersionKind gvk = scheme::GroupVersionKindOf<vpcresources::SecurityGroupPolicy>();
    const GroupVersion gv(gvk.group, gvk.version);
    StatusOr<discovery::GroupVersionResources> served = co_await discovery_->FetchGroupVersion(ctx, gv);
    if (IsNotFound(served.GetStatus())) {
        Remember(StatusSubresource::kUnknown);  // the kind is not served: sgp-kind-served says so
        co_return StatusSubresource::kUnknown;
    }
    CTRL_CO_RETURN_IF_ERROR(served.GetStatus(), "discovering whether SecurityGroupPolicy has a status subresource");
    const StatusSubresource answer = ListsStatus(*served) ? StatusSubresource::kPresent : StatusSubresource::kAbsent;
    Remember(answer);
    co_return answer;
}

Task<StatusOr<StatusSubresource>> StatusSubresourceProbe::Get(Context ctx) {
    const StatusSubresource last = Last();
    if (last != StatusSubresource::kUnknown)
        co_return last;
    co_return co_await Refresh(ctx);
}

std::string StatusSubresourceProbe::Detail() const {
    return Last() == StatusSubresource::kAbsent ? kStatusSubresourceAbsent : "";
}

Task<Status> StatusSubresourceWatch::Run(Context ctx) {
    while (!ctx.Cancelled()) {
        const StatusSubresource before = probe_->Last();
        const StatusOr<StatusSubresource> now = co_await probe_->Refresh(ctx);
        if (!now.Ok())
            log::FromContext(ctx).V(1).Info("Could not ask discovery again", "error", now.GetStatus());
        else if (*now != before)
            changed_->Push(std::make_shared<const Object>());
        if (!(co_await SleepFor(ctx, every_)).Ok())
            break;
    }
    co_return OkStatus();
}

void StatusSubresourceProbe::Remember(StatusSubresource answer) {
    const StatusSubresource before = last_.exchange(answer);
    if (before == answer || answer == StatusSubresource::kUnknown)
        return;
    if (answer == StatusSubresource::kAbsent)
        logger_.Info(kStatusSubresourceAbsent);
    else
        logger_.Info("SecurityGroupPolicy has a status subresource: each policy's state is written to its status");
}

}  // namespace ctrl::sgp
