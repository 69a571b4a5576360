#include "ctrl/client/direct_client.hpp"

#include <utility>

#include "ctrl/client/internal/delete_body.hpp"
#include "ctrl/client/object_checks.hpp"
#include "ctrl/log/log.hpp"

namespace ctrl::client {
namespace {

using internal::RequestTarget;

}  // namespace

DirectClient::DirectClient(std::shared_ptr<rest::RestClient> rest, std::shared_ptr<const scheme::Scheme> scheme,
                           std::shared_ptr<discovery::RESTMapper> mapper, Options options)
    : rest_(std::move(rest)), scheme_(std::move(scheme)), mapper_(std::move(mapper)), options_(std::move(options)) {}

StatusOr<GroupVersionKind> DirectClient::GroupVersionKindFor(const Object& object) const {
    return client::KindOfObject(object);
}

Task<StatusOr<bool>> DirectClient::IsObjectNamespaced(Context ctx, const Object& object) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, GroupVersionKindFor(object));
    CTRL_CO_ASSIGN_OR_RETURN(discovery::RESTMapping mapping, co_await MappingFor(std::move(ctx), gvk));
    co_return mapping.Namespaced();
}

Task<StatusOr<discovery::RESTMapping>> DirectClient::MappingFor(Context ctx, const GroupVersionKind& gvk) {
    if (std::optional<discovery::RESTMapping> cached = mapper_->CachedMapping(gvk))
        co_return *std::move(cached);
    GroupKind kind = gvk.ToGroupKind();
    std::vector<std::string> versions{gvk.version};
    co_return co_await mapper_->RESTMapping(std::move(ctx), std::move(kind), std::move(versions));
}

Task<StatusOr<RequestTarget>> DirectClient::NamedTarget(Context ctx, const Object& object, const GroupVersionKind& gvk,
                                                        std::string_view verb) {
    CTRL_CO_ASSIGN_OR_RETURN(discovery::RESTMapping mapping, co_await MappingFor(std::move(ctx), gvk));
    co_return internal::TargetForNamed(mapping, object.Key(), verb);
}

Task<StatusOr<rest::HttpResponse>> DirectClient::Send(Context ctx, const rest::RequestBuilder& request,
                                                      const discovery::RESTMapping& mapping) {
    CTRL_CO_ASSIGN_OR_RETURN(rest::HttpRequest built, request.Build());
    StatusOr<rest::HttpResponse> response = co_await rest_->Do(ctx, std::move(built));
    if (!response.Ok() && internal::IsResourcePathNotFound(response.GetStatus())) {
        // The resource's path is gone (a deleted CRD, a version no longer served): rediscover it.
        log::FromContext(ctx).WithName("client").V(1).Info(
            "the server does not know the resource's path: invalidating its group version in the RESTMapper",
            "resource", mapping.resource.String(), "gvk", mapping.gvk);
        mapper_->Invalidate(mapping.resource.ToGroupVersion());
    }
    co_return response;
}

rest::WriteParams DirectClient::WriteParamsFor(const WriteOptions& options) const {
    rest::WriteParams params;
    params.dry_run = options.dry_run || options_.dry_run;
    params.field_manager = options.field_owner.empty() ? options_.field_owner : options.field_owner;
    params.field_validation = options.field_validation;
    return params;
}

bool DirectClient::ObservesWrite(bool dry_run) const {
    return options_.write_observer != nullptr && !dry_run && !options_.dry_run;
}

void DirectClient::Report(const GroupVersionKind& gvk, const Object& key, const Object* answer, bool deleted) const {
    ObservedWrite write;
    write.gvk = gvk;
    write.namespace_name = key.Namespace();
    write.name = key.Name();
    write.deleted = deleted;
    if (answer != nullptr) {
        write.resource_version = answer->ResourceVersion();
        write.object = answer;
    }
    options_.write_observer->ObserveWrite(write);
}

void DirectClient::ReportWrite(const GroupVersionKind& gvk, const Object& object, const WriteOptions& options) const {
    if (ObservesWrite(options.dry_run))
        Report(gvk, object, &object, /*deleted=*/false);
}

void DirectClient::ReportDelete(const GroupVersionKind& gvk, const Object& object, std::string_view answer,
                                const DeleteOptions& options) const {
    if (!ObservesWrite(options.dry_run))
        return;
    // The object as deleted (its resourceVersion is the deletion's), or as marked for deletion when
    // finalizers hold it; a Status says neither.
    StatusOr<Object> answered = Object::Parse(answer);
    const bool is_object = answered.Ok() && answered->Kind() != "Status";
    Report(gvk, object, is_object ? &*answered : nullptr, /*deleted=*/true);
}

Task<Status> DirectClient::GetObject(Context ctx, ObjectKey key, Object& object, ObjectForm form, GetOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, internal::KindOfObject(object, form, *scheme_));
    CTRL_CO_ASSIGN_OR_RETURN(discovery::RESTMapping mapping, co_await MappingFor(ctx, gvk));
    CTRL_CO_ASSIGN_OR_RETURN(RequestTarget target, internal::TargetForNamed(mapping, key, "get"));
    rest::RequestBuilder request = target.Request("GET");
    request.Header("Accept", internal::AcceptFor(form, /*list=*/false));
    if (options.resource_version)
        request.Param("resourceVersion", *options.resource_version);
    CTRL_CO_ASSIGN_OR_RETURN(rest::HttpResponse response, co_await Send(std::move(ctx), request, mapping));
    co_return internal::DecodeObjectInto(response.body, form, gvk, object);
}

Task<Status> DirectClient::ListObjects(Context ctx, ObjectList& list, ObjectForm form, ListOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind item_gvk, internal::ItemKindOfList(list, form, *scheme_));
    CTRL_CO_ASSIGN_OR_RETURN(discovery::RESTMapping mapping, co_await MappingFor(ctx, item_gvk));
    if (options.label_selector.IsNothing()) {  // selects nothing: no request
        list.Items().clear();
        list.SetContinue("");
        co_return OkStatus();
    }
    rest::ListParams params;
    params.label_selector = options.label_selector.String();
    params.field_selector = options.field_selector.String();
    params.limit = options.limit;
    params.continue_token = options.continue_token;
    params.resource_version = options.resource_version;
    params.resource_version_match = options.resource_version_match;
    rest::RequestBuilder request = internal::TargetForCollection(mapping, options.namespace_name).Request("GET");
    request.Header("Accept", internal::AcceptFor(form, /*list=*/true)).List(params);
    CTRL_CO_ASSIGN_OR_RETURN(rest::HttpResponse response, co_await Send(std::move(ctx), request, mapping));
    co_return internal::DecodeListInto(response.body, form, item_gvk, list);
}

Task<Status> DirectClient::CreateObject(Context ctx, Object& object, ObjectForm form, CreateOptions options) {
    if (form == ObjectForm::kMetadata)
        co_return MetadataOnlyWrite("create");
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, internal::KindOfObject(object, form, *scheme_));
    CTRL_CO_ASSIGN_OR_RETURN(discovery::RESTMapping mapping, co_await MappingFor(ctx, gvk));
    CTRL_CO_ASSIGN_OR_RETURN(RequestTarget target, internal::TargetForCreate(mapping, object));
    rest::RequestBuilder request = target.Request("POST");
    request.Write(WriteParamsFor(options)).Body(object.ToJson());
    CTRL_CO_ASSIGN_OR_RETURN(rest::HttpResponse response, co_await Send(std::move(ctx), request, mapping));
    CTRL_CO_RETURN_IF_ERROR(internal::DecodeObjectInto(response.body, form, gvk, object));
    ReportWrite(gvk, object, options);
    co_return OkStatus();
}

Task<Status> DirectClient::UpdateObject(Context ctx, Object& object, ObjectForm form, UpdateOptions options) {
    if (form == ObjectForm::kMetadata)
        co_return MetadataOnlyWrite("update");
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, internal::KindOfObject(object, form, *scheme_));
    CTRL_CO_ASSIGN_OR_RETURN(RequestTarget target, co_await NamedTarget(ctx, object, gvk, "update"));
    rest::RequestBuilder request = target.Request("PUT");
    request.Write(WriteParamsFor(options)).Body(object.ToJson());
    CTRL_CO_ASSIGN_OR_RETURN(rest::HttpResponse response, co_await Send(std::move(ctx), request, target.mapping));
    CTRL_CO_RETURN_IF_ERROR(internal::DecodeObjectInto(response.body, form, gvk, object));
    ReportWrite(gvk, object, options);
    co_return OkStatus();
}

Task<Status> DirectClient::SendPatch(Context ctx, const RequestTarget& target, std::string_view sub_resource,
                                     const Object& source, Object& into, bool into_is_body, ObjectForm form,
                                     const client::Patch& patch, const PatchOptions& options) {
    rest::WriteParams params = WriteParamsFor(options);
    CTRL_CO_RETURN_IF_ERROR(CheckPatchOptions(patch.Type(), options.force, params.field_manager));
    if (patch.Type() == PatchType::kApply)
        params.force = options.force;
    CTRL_CO_ASSIGN_OR_RETURN(std::string data, patch.Data(source));
    rest::RequestBuilder request = target.Request("PATCH", sub_resource);
    request.Header("Accept", internal::AcceptFor(form, /*list=*/false))
        .Write(params)
        .Body(std::move(data), std::string(PatchContentType(patch.Type())));
    CTRL_CO_ASSIGN_OR_RETURN(rest::HttpResponse response, co_await Send(std::move(ctx), request, target.mapping));
    if (into_is_body)
        co_return internal::DecodeObjectInto(response.body, form, target.mapping.gvk, into);
    if (!sub_resource.empty())
        CTRL_CO_RETURN_IF_ERROR(internal::DecodeSubResourceAnswerInto(response.body, form, target.mapping.gvk, into));
    else
        CTRL_CO_RETURN_IF_ERROR(internal::DecodeObjectInto(response.body, form, target.mapping.gvk, into));
    ReportWrite(target.mapping.gvk, into, options);
    co_return OkStatus();
}

Task<Status> DirectClient::PatchObject(Context ctx, Object& object, ObjectForm form, client::Patch patch,
                                       PatchOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, internal::KindOfObject(object, form, *scheme_));
    CTRL_CO_ASSIGN_OR_RETURN(RequestTarget target, co_await NamedTarget(ctx, object, gvk, "patch"));
    co_return co_await SendPatch(std::move(ctx), target, {}, object, object, /*into_is_body=*/false, form, patch,
                                 options);
}

Task<Status> DirectClient::DeleteObject(Context ctx, Object& object, ObjectForm form, DeleteOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, internal::KindOfObject(object, form, *scheme_));
    CTRL_CO_ASSIGN_OR_RETURN(RequestTarget target, co_await NamedTarget(ctx, object, gvk, "delete"));
    rest::RequestBuilder request = target.Request("DELETE");
    request.Body(internal::DeleteOptionsBody(options, options_.dry_run));
    CTRL_CO_ASSIGN_OR_RETURN(rest::HttpResponse response, co_await Send(std::move(ctx), request, target.mapping));
    ReportDelete(target.mapping.gvk, object, response.body, options);
    co_return OkStatus();
}

Task<Status> DirectClient::DeleteAllOfObjects(Context ctx, Object& object, ObjectForm form,
                                              DeleteAllOfOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, internal::KindOfObject(object, form, *scheme_));
    CTRL_CO_ASSIGN_OR_RETURN(discovery::RESTMapping mapping, co_await MappingFor(ctx, gvk));
    const std::string& namespace_name = options.list.namespace_name;
    CTRL_CO_RETURN_IF_ERROR(CheckDeleteAllOfNamespace(mapping, namespace_name));
    if (options.list.label_selector.IsNothing())
        co_return OkStatus();
    rest::ListParams params;
    params.label_selector = options.list.label_selector.String();
    params.field_selector = options.list.field_selector.String();
    rest::RequestBuilder request = internal::TargetForCollection(mapping, namespace_name).Request("DELETE");
    request.List(params).Body(internal::DeleteOptionsBody(options.delete_options, options_.dry_run));
    CTRL_CO_ASSIGN_OR_RETURN(rest::HttpResponse response, co_await Send(std::move(ctx), request, mapping));
    (void)response;
    co_return OkStatus();
}

}  // namespace ctrl::client
