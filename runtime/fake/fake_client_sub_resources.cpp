// The subresource calls of FakeClient: status for kinds that have it, and pods' eviction.
#include <utility>

#include "ctrl/client/object_checks.hpp"
#include "ctrl/fake/fake_client.hpp"
#include "ctrl/fake/internal/api_errors.hpp"
#include "ctrl/fake/internal/object_form.hpp"
#include "ctrl/fake/internal/object_store.hpp"

namespace ctrl::fake {
namespace {

using client::ObjectForm;
using internal::KindRules;

constexpr std::string_view kStatus = "status";

Status NotImplemented(std::string_view sub_resource, std::string_view verb) {
    return BadRequestError("the fake client does not implement " + std::string(verb) + " of subresource \"" +
                           std::string(sub_resource) + "\" (it implements status and pods' eviction)");
}

// The status subresource of kind, as the server answers a path it does not serve.
Status CheckStatus(const KindRules& kind) {
    return kind.status_subresource ? OkStatus() : internal::ResourcePathNotFound();
}

bool IsPod(const GroupVersionKind& gvk) {
    return gvk.group.empty() && gvk.kind == "Pod";
}

}  // namespace

Task<Status> FakeClient::GetSubResource(Context ctx, std::string sub_resource, const Object& object, ObjectForm form,
                                        Object& sub_resource_object, client::SubResourceGetOptions /*options*/) {
    CTRL_CO_ASSIGN_OR_RETURN(KindRules kind, co_await RulesFor(std::move(ctx), object, form));
    CTRL_CO_RETURN_IF_ERROR(client::CheckNamedKey(kind.mapping, object.Key(), "get"));
    CTRL_CO_RETURN_IF_ERROR(Intercept("get", sub_resource, kind.mapping.gvk, object.Key()));
    if (sub_resource != kStatus)
        co_return NotImplemented(sub_resource, "get");
    CTRL_CO_RETURN_IF_ERROR(CheckStatus(kind));
    CTRL_CO_ASSIGN_OR_RETURN(Object found, store_->Get(kind, object.Key()));
    sub_resource_object = std::move(found);
    co_return OkStatus();
}

Task<Status> FakeClient::CreateSubResource(Context ctx, std::string sub_resource, const Object& object, ObjectForm form,
                                           Object& /*sub_resource_object*/, client::SubResourceCreateOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(KindRules kind, co_await RulesFor(std::move(ctx), object, form));
    CTRL_CO_RETURN_IF_ERROR(client::CheckNamedKey(kind.mapping, object.Key(), "create"));
    CTRL_CO_RETURN_IF_ERROR(Intercept("create", sub_resource, kind.mapping.gvk, object.Key()));
    if (sub_resource != "eviction" || !IsPod(kind.mapping.gvk))
        co_return NotImplemented(sub_resource, "create");
    // No disruption budgets here: an eviction deletes the pod.
    client::DeleteOptions eviction;
    eviction.dry_run = options.dry_run;
    co_return store_->Delete(kind, object.Key(), eviction);
}

Task<Status> FakeClient::UpdateSubResource(Context ctx, std::string sub_resource, Object& object, ObjectForm form,
                                           Object* body, client::SubResourceUpdateOptions options) {
    if (form == ObjectForm::kMetadata && body == nullptr)
        co_return BadRequestError("cannot update subresource \"" + sub_resource +
                                  "\" using only metadata: use a typed or unstructured object");
    CTRL_CO_ASSIGN_OR_RETURN(KindRules kind, co_await RulesFor(std::move(ctx), object, form));
    CTRL_CO_RETURN_IF_ERROR(client::CheckNamedKey(kind.mapping, object.Key(), "update"));
    CTRL_CO_RETURN_IF_ERROR(Intercept("update", sub_resource, kind.mapping.gvk, object.Key()));
    if (sub_resource != kStatus || body != nullptr)
        co_return NotImplemented(sub_resource, "update");
    CTRL_CO_RETURN_IF_ERROR(CheckStatus(kind));
    CTRL_CO_ASSIGN_OR_RETURN(Object updated,
                             store_->Update(kind, object.DeepCopy(), internal::WriteScope::kStatus, options.dry_run));
    object = internal::InForm(std::move(updated), form, kind.mapping.gvk);
    co_return OkStatus();
}

Task<Status> FakeClient::PatchSubResource(Context ctx, std::string sub_resource, Object& object, ObjectForm form,
                                          Object* body, client::Patch patch, client::SubResourcePatchOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(KindRules kind, co_await RulesFor(std::move(ctx), object, form));
    CTRL_CO_RETURN_IF_ERROR(client::CheckNamedKey(kind.mapping, object.Key(), "patch"));
    CTRL_CO_RETURN_IF_ERROR(Intercept("patch", sub_resource, kind.mapping.gvk, object.Key()));
    if (sub_resource != kStatus || body != nullptr)
        co_return NotImplemented(sub_resource, "patch");
    CTRL_CO_RETURN_IF_ERROR(CheckStatus(kind));
    CTRL_CO_ASSIGN_OR_RETURN(std::string data, patch.Data(object));
    CTRL_CO_ASSIGN_OR_RETURN(Object patched, store_->Patch(kind, object.Key(), patch.Type(), data,
                                                           internal::WriteScope::kStatus, options.dry_run));
    object = internal::InForm(std::move(patched), form, kind.mapping.gvk);
    co_return OkStatus();
}

}  // namespace ctrl::fake
