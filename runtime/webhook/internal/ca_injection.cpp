#include "ctrl/webhook/internal/ca_injection.hpp"

#include <utility>
#include <vector>

namespace ctrl::webhook::internal {

StatusOr<bool> SetCaBundle(Object& object, std::string_view ca_bundle_base64) {
    const std::string kind(object.Kind());
    if (kind == "CustomResourceDefinition") {
        StatusOr<std::string> strategy = object.NestedString({"spec", "conversion", "strategy"});
        if (!strategy.Ok() || *strategy != "Webhook")
            return BadRequestError("CustomResourceDefinition " + std::string(object.Name()) +
                                   " has no webhook conversion (spec.conversion.strategy is not Webhook)");
        StatusOr<std::string> held = object.NestedString({"spec", "conversion", "webhook", "clientConfig", "caBundle"});
        if (held.Ok() && *held == ca_bundle_base64)
            return false;
        CTRL_RETURN_IF_ERROR(
            object.SetNestedString({"spec", "conversion", "webhook", "clientConfig", "caBundle"}, ca_bundle_base64));
        return true;
    }
    if (kind != "ValidatingWebhookConfiguration" && kind != "MutatingWebhookConfiguration")
        return BadRequestError("cannot inject a CA bundle into a " + kind);
    StatusOr<std::vector<Object>> webhooks = object.NestedSlice({"webhooks"});
    if (!webhooks.Ok())
        return false;  // no webhooks: nothing to trust
    bool changed = false;
    std::string list = "[";
    for (Object& webhook : *webhooks) {
        StatusOr<std::string> held = webhook.NestedString({"clientConfig", "caBundle"});
        if (!held.Ok() || *held != ca_bundle_base64) {
            CTRL_RETURN_IF_ERROR(webhook.SetNestedString({"clientConfig", "caBundle"}, ca_bundle_base64));
            changed = true;
        }
        list += (list.size() > 1 ? "," : "") + webhook.ToJson();
    }
    if (!changed)
        return false;
    CTRL_ASSIGN_OR_RETURN(Object rewritten, Object::Parse(list + "]"));
    CTRL_RETURN_IF_ERROR(object.SetNestedField({"webhooks"}, rewritten));
    return true;
}

Task<Status> InjectCaBundle(Context ctx, client::Client& writer, GroupVersionKind kind, std::string name,
                            std::string ca_bundle_base64) {
    Object object;
    object.SetGroupVersionKind(kind);
    const ObjectKey key("", name);
    Status got = co_await writer.Get(ctx, key, object);
    if (IsNotFound(got))
        co_return OkStatus();
    CTRL_CO_RETURN_IF_ERROR(got);
    StatusOr<bool> changed = SetCaBundle(object, ca_bundle_base64);
    if (!changed.Ok())
        co_return changed.GetStatus();
    if (!*changed)
        co_return OkStatus();
    co_return co_await writer.Update(ctx, object);
}

}  // namespace ctrl::webhook::internal
