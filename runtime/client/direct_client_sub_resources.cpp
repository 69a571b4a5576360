// The subresource calls of DirectClient: status, scale, eviction, token, ...
#include <utility>

#include "ctrl/client/direct_client.hpp"

namespace ctrl::client {
namespace {

using internal::RequestTarget;

// The form of a subresource's own object (a Scale, an Eviction): whatever JSON it holds.
constexpr ObjectForm kSubResourceForm = ObjectForm::kUnstructured;

// The kind of a subresource body for decoding an answer that lacks one.
GroupVersionKind KindOrEmpty(const Object& object) {
    StatusOr<GroupVersionKind> gvk = object.GetGroupVersionKind();
    return gvk.Ok() ? gvk.Value() : GroupVersionKind{};
}

}  // namespace

Task<Status> DirectClient::GetSubResource(Context ctx, std::string sub_resource, const Object& object, ObjectForm form,
                                          Object& sub_resource_object, SubResourceGetOptions /*options*/) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, internal::KindOfObject(object, form, *scheme_));
    CTRL_CO_ASSIGN_OR_RETURN(RequestTarget target, co_await NamedTarget(ctx, object, gvk, "get"));
    rest::RequestBuilder request = target.Request("GET", sub_resource);
    CTRL_CO_ASSIGN_OR_RETURN(rest::HttpResponse response, co_await Send(std::move(ctx), request, target.mapping));
    co_return internal::DecodeObjectInto(response.body, kSubResourceForm, KindOrEmpty(sub_resource_object),
                                         sub_resource_object);
}

Task<Status> DirectClient::CreateSubResource(Context ctx, std::string sub_resource, const Object& object,
                                             ObjectForm form, Object& sub_resource_object,
                                             SubResourceCreateOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, internal::KindOfObject(object, form, *scheme_));
    CTRL_CO_ASSIGN_OR_RETURN(RequestTarget target, co_await NamedTarget(ctx, object, gvk, "create"));
    rest::RequestBuilder request = target.Request("POST", sub_resource);
    request.Write(WriteParamsFor(options)).Body(sub_resource_object.ToJson());
    CTRL_CO_ASSIGN_OR_RETURN(rest::HttpResponse response, co_await Send(std::move(ctx), request, target.mapping));
    co_return internal::DecodeObjectInto(response.body, kSubResourceForm, KindOrEmpty(sub_resource_object),
                                         sub_resource_object);
}

Task<Status> DirectClient::UpdateSubResource(Context ctx, std::string sub_resource, Object& object, ObjectForm form,
                                             Object* body, SubResourceUpdateOptions options) {
    if (form == ObjectForm::kMetadata && body == nullptr)
        co_return BadRequestError("cannot update subresource \"" + sub_resource +
                                  "\" using only metadata: use a typed or unstructured object");
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, internal::KindOfObject(object, form, *scheme_));
    CTRL_CO_ASSIGN_OR_RETURN(RequestTarget target, co_await NamedTarget(ctx, object, gvk, "update"));
    Object& sent = body != nullptr ? *body : object;
    rest::RequestBuilder request = target.Request("PUT", sub_resource);
    request.Write(WriteParamsFor(options)).Body(sent.ToJson());
    CTRL_CO_ASSIGN_OR_RETURN(rest::HttpResponse response, co_await Send(std::move(ctx), request, target.mapping));
    if (body != nullptr)
        co_return internal::DecodeObjectInto(response.body, kSubResourceForm, KindOrEmpty(*body), *body);
    CTRL_CO_RETURN_IF_ERROR(internal::DecodeSubResourceAnswerInto(response.body, form, gvk, object));
    ReportWrite(gvk, object, options);
    co_return OkStatus();
}

Task<Status> DirectClient::PatchSubResource(Context ctx, std::string sub_resource, Object& object, ObjectForm form,
                                            Object* body, client::Patch patch, SubResourcePatchOptions options) {
    CTRL_CO_ASSIGN_OR_RETURN(GroupVersionKind gvk, internal::KindOfObject(object, form, *scheme_));
    CTRL_CO_ASSIGN_OR_RETURN(RequestTarget target, co_await NamedTarget(ctx, object, gvk, "patch"));
    if (body != nullptr)
        co_return co_await SendPatch(std::move(ctx), target, sub_resource, *body, *body, /*into_is_body=*/true,
                                     kSubResourceForm, patch, options);
    co_return co_await SendPatch(std::move(ctx), target, sub_resource, object, object, /*into_is_body=*/false, form,
                                 patch, options);
}

}  // namespace ctrl::client
