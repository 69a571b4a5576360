#include "ctrl/client/delegating_client.hpp"

#include <utility>

#include "ctrl/client/internal/request_target.hpp"

namespace ctrl::client {

DelegatingClient::DelegatingClient(Client& direct, Reader& cache, CacheReadOptions options)
    : direct_(direct), cache_(cache), options_(std::move(options)) {}

bool DelegatingClient::BypassesCache(const GroupVersionKind& gvk, ObjectForm form) const {
    if (options_.uncached.contains(gvk))
        return true;
    return form == ObjectForm::kUnstructured && !options_.unstructured;
}

Task<ctrl::Status> DelegatingClient::GetObject(Context ctx, ObjectKey key, Object& object, ObjectForm form,
                                               GetOptions options) {
    // A kind error is the direct client's to give (it names the object the same way).
    StatusOr<GroupVersionKind> gvk = internal::KindOfObject(object, form, direct_.Scheme());
    Reader& reader = !gvk.Ok() || BypassesCache(*gvk, form) ? static_cast<Reader&>(direct_) : cache_;
    co_return co_await reader.GetObject(std::move(ctx), std::move(key), object, form, std::move(options));
}

Task<ctrl::Status> DelegatingClient::ListObjects(Context ctx, ObjectList& list, ObjectForm form, ListOptions options) {
    StatusOr<GroupVersionKind> gvk = internal::ItemKindOfList(list, form, direct_.Scheme());
    Reader& reader = !gvk.Ok() || BypassesCache(*gvk, form) ? static_cast<Reader&>(direct_) : cache_;
    co_return co_await reader.ListObjects(std::move(ctx), list, form, std::move(options));
}

Task<ctrl::Status> DelegatingClient::CreateObject(Context ctx, Object& object, ObjectForm form, CreateOptions options) {
    return direct_.CreateObject(std::move(ctx), object, form, std::move(options));
}
Task<ctrl::Status> DelegatingClient::UpdateObject(Context ctx, Object& object, ObjectForm form, UpdateOptions options) {
    return direct_.UpdateObject(std::move(ctx), object, form, std::move(options));
}
Task<ctrl::Status> DelegatingClient::PatchObject(Context ctx, Object& object, ObjectForm form, client::Patch patch,
                                                 PatchOptions options) {
    return direct_.PatchObject(std::move(ctx), object, form, patch, std::move(options));
}
Task<ctrl::Status> DelegatingClient::DeleteObject(Context ctx, Object& object, ObjectForm form, DeleteOptions options) {
    return direct_.DeleteObject(std::move(ctx), object, form, std::move(options));
}
Task<ctrl::Status> DelegatingClient::DeleteAllOfObjects(Context ctx, Object& object, ObjectForm form,
                                                        DeleteAllOfOptions options) {
    return direct_.DeleteAllOfObjects(std::move(ctx), object, form, std::move(options));
}

Task<ctrl::Status> DelegatingClient::GetSubResource(Context ctx, std::string sub_resource, const Object& object,
                                                    ObjectForm form, Object& sub_resource_object,
                                                    SubResourceGetOptions options) {
    return direct_.GetSubResource(std::move(ctx), std::move(sub_resource), object, form, sub_resource_object,
                                  std::move(options));
}
Task<ctrl::Status> DelegatingClient::CreateSubResource(Context ctx, std::string sub_resource, const Object& object,
                                                       ObjectForm form, Object& sub_resource_object,
                                                       SubResourceCreateOptions options) {
    return direct_.CreateSubResource(std::move(ctx), std::move(sub_resource), object, form, sub_resource_object,
                                     std::move(options));
}
Task<ctrl::Status> DelegatingClient::UpdateSubResource(Context ctx, std::string sub_resource, Object& object,
                                                       ObjectForm form, Object* body,
                                                       SubResourceUpdateOptions options) {
    return direct_.UpdateSubResource(std::move(ctx), std::move(sub_resource), object, form, body, std::move(options));
}
Task<ctrl::Status> DelegatingClient::PatchSubResource(Context ctx, std::string sub_resource, Object& object,
                                                      ObjectForm form, Object* body, client::Patch patch,
                                                      SubResourcePatchOptions options) {
    return direct_.PatchSubResource(std::move(ctx), std::move(sub_resource), object, form, body, patch,
                                    std::move(options));
}

}  // namespace ctrl::client
