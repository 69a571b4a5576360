// Manager: the webhook server (GetWebhookServer).

#include "ctrl/manager/internal/runnable_adapters.hpp"
#include "ctrl/manager/manager.hpp"

namespace ctrl::manager {

Status Manager::MakeWebhookServer() {
    webhook::ServerOptions options = options_.webhook;
    if (options.registry == nullptr)
        options.registry = registry_;
    if (options_.webhook_certificates) {
        StatusOr<std::shared_ptr<webhook::CertRotator>> rotator = webhook::CertRotator::New(
            *options_.webhook_certificates, cluster_->SharedRestClient(), cluster_->GetAPIReader(), *registry_);
        if (!rotator.Ok())
            return BadRequestError("manager option webhook_certificates: " + rotator.GetStatus().Message());
        cert_rotator_ = *rotator;
        options.certificates = cert_rotator_;
    }
    StatusOr<std::unique_ptr<webhook::Server>> made = webhook::Server::New(io_.get_executor(), std::move(options));
    if (!made.Ok())
        return BadRequestError("manager option webhook: " + made.GetStatus().Message());
    webhook_server_ = std::move(*made);
    return OkStatus();
}

webhook::Server& Manager::GetWebhookServer() {
    std::call_once(webhook_once_, [this] {
        // Cannot fail: the name is unique to this call and the servers group takes runnables
        // until the manager stops.
        if (cert_rotator_)
            (void)servers_.Add(std::make_shared<internal::RunnableOf<webhook::CertRotator>>(cert_rotator_));
        (void)servers_.Add(std::make_shared<internal::RunnableOf<webhook::Server>>(webhook_server_));
        (void)AddReadyzCheck("webhook-server", webhook_server_->StartedChecker());
    });
    return *webhook_server_;
}

}  // namespace ctrl::manager
