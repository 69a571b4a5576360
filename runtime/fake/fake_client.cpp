#include "ctrl/fake/fake_client.hpp"

#include <utility>

#include "ctrl/client/internal/request_target.hpp"
#include "ctrl/client/object_checks.hpp"
#include "ctrl/fake/internal/object_form.hpp"
#include "ctrl/fake/internal/object_store.hpp"

namespace ctrl::fake {
namespace {

using client::ObjectForm;
using internal::InForm;
using internal::KindRules;

}  // namespace

FakeClient::FakeClient(std::shared_ptr<const scheme::Scheme> scheme, std::shared_ptr<discovery::RESTMapper> mapper,
                       std::set<GroupKind> status_subresource, std::set<GroupKind> generation,
                       std::unique_ptr<internal::ObjectStore> store, std::vector<Interceptor> interceptors)
    : scheme_(std::move(scheme)),
      mapper_(std::move(mapper)),
      status_subresource_(std::move(status_subresource)),
      generation_(std::move(generation)),
      store_(std::move(store)),
      interceptors_(std::move(interceptors)) {}

FakeClient::~FakeClient() = default;

StatusOr<GroupVersionKind> FakeClient::GroupVersionKindFor(const Object& object) const {
    return client::KindOfObject(object);
}

Status FakeClient::Intercept(std::string_view verb, std::string_view sub_resource, const GroupVersionKind& gvk,
                             const ObjectKey& key) const {
    if (interceptors_.empty())
        return OkStatus();
    const Call call{verb, sub_resource, gvk, key};
    for (const Interceptor& interceptor : interceptors_)
        CTRL_RETURN_IF_ERROR(interceptor(call));
    return OkStatus();
}

Task<StatusOr<KindRules>> FakeClient::RulesForKind(Context ctx, const GroupVersionKind& gvk) {
    CTRL_CO_RETURN_IF_ERROR(ctx.Err());
    KindRules rules;
    if (std::optional<discovery::RESTMapping> cached = mapper_->CachedMapping(gvk)) {
        rules.mapping = *std::move(cached);
    } else {
        GroupKind kind = gvk.ToGroupKind();
        std::vector<std::string> versions{gvk.version};
        CTRL_CO_ASSIGN_OR_RETURN(rules.mapping,
                                 co_await mapper_->RESTMapping(std::move(ctx), std::move(kind), std::move(versions)));
    }
    rules.status_subresource = status_subresource_.contains(gvk.ToGroupKind());
    rules.tracks_generation = generation_.contains(gvk.ToGroupKind());
    co_return rules;
}

Task<StatusOr<KindRules>> FakeClient::RulesFor(Context ctx, const Object& object, ObjectForm form) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, client::internal::KindOfObject(object, form, *scheme_));
    co_return co_await RulesForKind(std::move(ctx), gvk);
}

Task<StatusOr<bool>> FakeClient::IsObjectNamespaced(Context ctx, const Object& object) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, GroupVersionKindFor(object));
    CTRL_CO_ASSIGN_OR_RETURN(KindRules kind, co_await RulesForKind(std::move(ctx), gvk));
    co_return kind.mapping.Namespaced();
}

Task<Status> FakeClient::GetObject(Context ctx, ObjectKey key, Object& object, ObjectForm form,
                                   client::GetOptions /*options*/) {
    CTRL_CO_ASSIGN_OR_RETURN(KindRules kind, co_await RulesFor(std::move(ctx), object, form));
    CTRL_CO_RETURN_IF_ERROR(client::CheckNamedKey(kind.mapping, key, "get"));
    CTRL_CO_RETURN_IF_ERROR(Intercept("get", "", kind.mapping.gvk, key));
    CTRL_CO_ASSIGN_OR_RETURN(Object found, store_->Get(kind, key));
    object = InForm(std::move(found), form, kind.mapping.gvk);
    co_return OkStatus();
}

Task<Status> FakeClient::ListObjects(Context ctx, ObjectList& list, ObjectForm form, client::ListOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind item_gvk, client::internal::ItemKindOfList(list, form, *scheme_));
    CTRL_CO_ASSIGN_OR_RETURN(KindRules kind, co_await RulesForKind(std::move(ctx), item_gvk));
    const ObjectKey in_namespace{options.namespace_name, ""};
    CTRL_CO_RETURN_IF_ERROR(Intercept("list", "", kind.mapping.gvk, in_namespace));
    CTRL_CO_ASSIGN_OR_RETURN(ObjectList found, store_->List(kind, options));
    internal::ListInForm(found, form, item_gvk);
    list = std::move(found);
    co_return OkStatus();
}

Task<Status> FakeClient::CreateObject(Context ctx, Object& object, ObjectForm form, client::CreateOptions options) {
    if (form == ObjectForm::kMetadata)
        co_return client::MetadataOnlyWrite("create");
    CTRL_CO_ASSIGN_OR_RETURN(KindRules kind, co_await RulesFor(std::move(ctx), object, form));
    CTRL_CO_RETURN_IF_ERROR(client::internal::TargetForCreate(kind.mapping, object).GetStatus());
    CTRL_CO_RETURN_IF_ERROR(Intercept("create", "", kind.mapping.gvk, object.Key()));
    CTRL_CO_ASSIGN_OR_RETURN(Object created, store_->Create(kind, object.DeepCopy(), options.dry_run));
    object = InForm(std::move(created), form, kind.mapping.gvk);
    co_return OkStatus();
}

Task<Status> FakeClient::UpdateObject(Context ctx, Object& object, ObjectForm form, client::UpdateOptions options) {
    if (form == ObjectForm::kMetadata)
        co_return client::MetadataOnlyWrite("update");
    CTRL_CO_ASSIGN_OR_RETURN(KindRules kind, co_await RulesFor(std::move(ctx), object, form));
    CTRL_CO_RETURN_IF_ERROR(client::CheckNamedKey(kind.mapping, object.Key(), "update"));
    CTRL_CO_RETURN_IF_ERROR(Intercept("update", "", kind.mapping.gvk, object.Key()));
    CTRL_CO_ASSIGN_OR_RETURN(Object updated,
                             store_->Update(kind, object.DeepCopy(), internal::WriteScope::kObject, options.dry_run));
    object = InForm(std::move(updated), form, kind.mapping.gvk);
    co_return OkStatus();
}

Task<Status> FakeClient::PatchObject(Context ctx, Object& object, ObjectForm form, client::Patch patch,
                                     client::PatchOptions options) {
    CTRL_CO_RETURN_IF_ERROR(client::CheckPatchOptions(patch.Type(), options.force, options.field_owner));
    CTRL_CO_ASSIGN_OR_RETURN(KindRules kind, co_await RulesFor(std::move(ctx), object, form));
    CTRL_CO_RETURN_IF_ERROR(client::CheckNamedKey(kind.mapping, object.Key(), "patch"));
    CTRL_CO_RETURN_IF_ERROR(Intercept("patch", "", kind.mapping.gvk, object.Key()));
    CTRL_CO_ASSIGN_OR_RETURN(std::string data, patch.Data(object));
    CTRL_CO_ASSIGN_OR_RETURN(Object patched, store_->Patch(kind, object.Key(), patch.Type(), data,
                                                           internal::WriteScope::kObject, options.dry_run));
    object = InForm(std::move(patched), form, kind.mapping.gvk);
    co_return OkStatus();
}

Task<Status> FakeClient::DeleteObject(Context ctx, Object& object, ObjectForm form, client::DeleteOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(KindRules kind, co_await RulesFor(std::move(ctx), object, form));
    CTRL_CO_RETURN_IF_ERROR(client::CheckNamedKey(kind.mapping, object.Key(), "delete"));
    CTRL_CO_RETURN_IF_ERROR(Intercept("delete", "", kind.mapping.gvk, object.Key()));
    co_return store_->Delete(kind, object.Key(), options);
}

Task<Status> FakeClient::DeleteAllOfObjects(Context ctx, Object& object, ObjectForm form,
                                            client::DeleteAllOfOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(KindRules kind, co_await RulesFor(std::move(ctx), object, form));
    CTRL_CO_RETURN_IF_ERROR(client::CheckDeleteAllOfNamespace(kind.mapping, options.list.namespace_name));
    const ObjectKey in_namespace{options.list.namespace_name, ""};
    CTRL_CO_RETURN_IF_ERROR(Intercept("deletecollection", "", kind.mapping.gvk, in_namespace));
    co_return store_->DeleteCollection(kind, options.list, options.delete_options);
}

}  // namespace ctrl::fake
