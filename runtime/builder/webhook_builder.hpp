#pragma once

#include <memory>
#include <string>
#include <utility>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/scheme/typed_object.hpp"
#include "ctrl/webhook/admission/handler.hpp"
#include "ctrl/webhook/admission/typed_handlers.hpp"
#include "ctrl/webhook/server.hpp"

namespace ctrl::builder {

// controller-runtime's webhook paths for a kind: "/validate-<group with '.' as '-'>-<version>-
// <kind in lower case>" ("/validate-vpcresources-k8s-aws-v1beta1-securitygrouppolicy",
// "/validate--v1-configmap" for the core group) and "/mutate-...".
std::string ValidatePath(const GroupVersionKind& gvk);
std::string MutatePath(const GroupVersionKind& gvk);

// Registers one kind's admission webhooks on a webhook server (controller-runtime's
// builder.WebhookBuilder): `builder::WebhookManagedBy(*mgr).For<T>().WithValidator(v)
// .WithDefaulter(d).Complete()` serves v at ValidatePath(T) and d at MutatePath(T).
template <scheme::TypedObject T>
class TypedWebhookBuilder {
  public:
    explicit TypedWebhookBuilder(webhook::Server& server) : server_(server) {}

    TypedWebhookBuilder& WithValidator(std::shared_ptr<webhook::admission::Validator<T>> validator) {
        validator_ = std::move(validator);
        return *this;
    }
    TypedWebhookBuilder& WithDefaulter(std::shared_ptr<webhook::admission::Defaulter<T>> defaulter) {
        defaulter_ = std::move(defaulter);
        return *this;
    }
    // Paths other than the usual ones (controller-runtime's WithValidatorCustomPath and
    // WithDefaulterCustomPath).
    TypedWebhookBuilder& WithValidatePath(std::string path) {
        validate_path_ = std::move(path);
        return *this;
    }
    TypedWebhookBuilder& WithMutatePath(std::string path) {
        mutate_path_ = std::move(path);
        return *this;
    }

    // Registers what was given. BadRequest without a validator or a defaulter; AlreadyExists when
    // a path is taken (nothing is registered then).
    Status Complete() {
        const GroupVersionKind gvk = scheme::GroupVersionKindOf<T>();
        if (!validator_ && !defaulter_)
            return BadRequestError("webhook for " + gvk.String() + ": give WithValidator or WithDefaulter");
        const std::string validate = validate_path_.empty() ? ValidatePath(gvk) : validate_path_;
        const std::string mutate = mutate_path_.empty() ? MutatePath(gvk) : mutate_path_;
        if ((validator_ && server_.Registered(validate)) || (defaulter_ && server_.Registered(mutate)))
            return AlreadyExistsError("webhook for " + gvk.String() + ": its path is already registered");
        if (defaulter_)
            CTRL_RETURN_IF_ERROR(
                server_.RegisterAdmission(mutate, webhook::admission::DefaultingHandler<T>(defaulter_)));
        if (validator_)
            CTRL_RETURN_IF_ERROR(
                server_.RegisterAdmission(validate, webhook::admission::ValidatingHandler<T>(validator_)));
        return OkStatus();
    }

  private:
    webhook::Server& server_;
    std::shared_ptr<webhook::admission::Validator<T>> validator_;
    std::shared_ptr<webhook::admission::Defaulter<T>> defaulter_;
    std::string validate_path_;
    std::string mutate_path_;
};

// The first step of WebhookManagedBy: the kind.
class WebhookBuilder {
  public:
    explicit WebhookBuilder(webhook::Server& server) : server_(server) {}
    template <scheme::TypedObject T>
    TypedWebhookBuilder<T> For() {
        return TypedWebhookBuilder<T>(server_);
    }

  private:
    webhook::Server& server_;
};

// A webhook builder on a manager's webhook server (controller-runtime's builder.WebhookManagedBy):
// anything with GetWebhookServer(), a manager::Manager.
template <typename Manager>
WebhookBuilder WebhookManagedBy(Manager& manager) {
    return WebhookBuilder(manager.GetWebhookServer());
}

}  // namespace ctrl::builder
