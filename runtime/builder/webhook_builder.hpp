#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/scheme/typed_object.hpp"
#include "ctrl/webhook/admission/handler.hpp"
#include "ctrl/webhook/admission/typed_handlers.hpp"
#include "ctrl/webhook/conversion/convertible.hpp"
#include "ctrl/webhook/server.hpp"

namespace ctrl::builder {

// controller-runtime's webhook paths for a kind: "/validate-<group with '.' as '-'>-<version>-
// <kind in lower case>" ("/validate-vpcresources-k8s-aws-v1beta1-securitygrouppolicy",
// "/validate--v1-configmap" for the core group) and "/mutate-...".
std::string ValidatePath(const GroupVersionKind& gvk);
std::string MutatePath(const GroupVersionKind& gvk);

// Registers one kind's webhooks on a webhook server (controller-runtime's builder.WebhookBuilder):
// `builder::WebhookManagedBy(*mgr).For<T>().WithValidator(v).WithDefaulter(d).Complete()` serves v
// at ValidatePath(T) and d at MutatePath(T). When T is a conversion hub or spoke
// (webhook::conversion::Hub, Convertible: what ctrl-gen declares for a CRD whose conversion
// strategy is Webhook), Complete() also serves the conversion of T's group and kind at /convert,
// as controller-runtime does for a Hub or Convertible type; `For<T>().Complete()` alone does just
// that. WithConverter gives the conversion explicitly.
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
    // The conversion of T's group and kind to serve at /convert, instead of the one T's hub and
    // spokes declare (controller-runtime's WithConverter).
    TypedWebhookBuilder& WithConverter(webhook::conversion::Converter converter) {
        converter_.emplace(std::move(converter));
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

    // Registers what was given. BadRequest with nothing to serve (no validator, defaulter or
    // converter, and T is neither a hub nor a spoke) or a converter of another kind; AlreadyExists
    // when a path is taken or an explicit converter's group and kind has one (nothing is
    // registered then). T's declared conversion is registered once: For<Hub> and For<Spoke> of one
    // group and kind both succeed.
    Status Complete() {
        const GroupVersionKind gvk = scheme::GroupVersionKindOf<T>();
        if (!converter_) {
            if (std::optional<StatusOr<webhook::conversion::Converter>> declared =
                    webhook::conversion::ConverterFor<T>()) {
                if (!declared->Ok())
                    return declared->GetStatus();
                if (!server_.Conversions().Registered(gvk.ToGroupKind()))
                    converter_.emplace(std::move(*declared).Value());
                converts_ = true;
            }
        }
        if (!validator_ && !defaulter_ && !converter_ && !converts_)
            return BadRequestError("webhook for " + gvk.String() +
                                   ": give WithValidator, WithDefaulter or WithConverter, or For a kind that converts");
        if (converter_ && converter_->Kind() != gvk.ToGroupKind())
            return BadRequestError("webhook for " + gvk.String() + ": WithConverter gives a conversion of " +
                                   converter_->Kind().String());
        const std::string validate = validate_path_.empty() ? ValidatePath(gvk) : validate_path_;
        const std::string mutate = mutate_path_.empty() ? MutatePath(gvk) : mutate_path_;
        if ((validator_ && server_.Registered(validate)) || (defaulter_ && server_.Registered(mutate)))
            return AlreadyExistsError("webhook for " + gvk.String() + ": its path is already registered");
        if (converter_ && server_.Conversions().Registered(converter_->Kind()))
            return AlreadyExistsError("webhook for " + gvk.String() + ": a conversion of " +
                                      converter_->Kind().String() + " is already registered");
        if (converter_)
            CTRL_RETURN_IF_ERROR(server_.RegisterConversion(std::move(*converter_)));
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
    std::optional<webhook::conversion::Converter> converter_;
    bool converts_ = false;  // T declares a conversion (registered by this builder or before)
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
