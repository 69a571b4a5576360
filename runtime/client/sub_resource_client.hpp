#pragma once

#include <string>
#include <utility>

#include "runtime/client/object_form.hpp"
#include "runtime/client/options.hpp"
#include "runtime/client/patch.hpp"
#include "runtime/core/context.hpp"
#include "runtime/core/object.hpp"
#include "runtime/core/status.hpp"
#include "runtime/core/task.hpp"

namespace ctrl::client {

// The calls on a subresource (status, scale, eviction, token, ...) of an object, which a client
// implements; SubResourceClient puts the subresource's name and the object's form in.
class SubResourceOperations {
  public:
    virtual ~SubResourceOperations() = default;

    // GET <object path>/<subresource> into sub_resource (e.g. an autoscaling/v1 Scale).
    virtual Task<Status> GetSubResource(Context ctx, std::string sub_resource, const Object& object, ObjectForm form,
                                        Object& sub_resource_object, SubResourceGetOptions options) = 0;
    // POST sub_resource_object to <object path>/<subresource> (a policy/v1 Eviction to
    // pods/eviction); sub_resource_object holds the answer after.
    virtual Task<Status> CreateSubResource(Context ctx, std::string sub_resource, const Object& object, ObjectForm form,
                                           Object& sub_resource_object, SubResourceCreateOptions options) = 0;
    // PUT to <object path>/<subresource>: the body is body when given (a Scale), else object
    // itself (status). The answer goes into body when given, else into object.
    virtual Task<Status> UpdateSubResource(Context ctx, std::string sub_resource, Object& object, ObjectForm form,
                                           Object* body, SubResourceUpdateOptions options) = 0;
    // PATCH <object path>/<subresource> with patch computed from object (or from body, when
    // given); the answer goes where UpdateSubResource puts it.
    virtual Task<Status> PatchSubResource(Context ctx, std::string sub_resource, Object& object, ObjectForm form,
                                          Object* body, Patch patch, SubResourcePatchOptions options) = 0;
};

// One subresource of a client (client.SubResourceClient): Client::Status() for "status",
// Client::SubResource("scale") for others. Holds the client by pointer: the client outlives it.
//   co_await client.Status().Update(ctx, widget);
//   co_await client.SubResource("eviction").Create(ctx, pod, eviction);
class SubResourceClient {
  public:
    SubResourceClient(SubResourceOperations& operations, std::string sub_resource)
        : operations_(&operations), sub_resource_(std::move(sub_resource)) {}

    const std::string& Name() const { return sub_resource_; }

    template <ClientObject T>
    Task<Status> Get(Context ctx, const T& object, Object& sub_resource_object, SubResourceGetOptions options = {}) {
        return operations_->GetSubResource(std::move(ctx), sub_resource_, object, FormOf<T>(), sub_resource_object,
                                           std::move(options));
    }
    template <ClientObject T>
    Task<Status> Create(Context ctx, const T& object, Object& sub_resource_object,
                        SubResourceCreateOptions options = {}) {
        return operations_->CreateSubResource(std::move(ctx), sub_resource_, object, FormOf<T>(), sub_resource_object,
                                              std::move(options));
    }
    // Sends object itself (the status subresource): the server keeps everything but what the
    // subresource covers.
    template <ClientObject T>
    Task<Status> Update(Context ctx, T& object, SubResourceUpdateOptions options = {}) {
        return operations_->UpdateSubResource(std::move(ctx), sub_resource_, object, FormOf<T>(), nullptr,
                                              std::move(options));
    }
    // Sends body (a Scale) to object's subresource; the answer goes into body.
    template <ClientObject T>
    Task<Status> Update(Context ctx, T& object, Object& body, SubResourceUpdateOptions options = {}) {
        return operations_->UpdateSubResource(std::move(ctx), sub_resource_, object, FormOf<T>(), &body,
                                              std::move(options));
    }
    template <ClientObject T>
    Task<Status> Patch(Context ctx, T& object, client::Patch patch, SubResourcePatchOptions options = {}) {
        return operations_->PatchSubResource(std::move(ctx), sub_resource_, object, FormOf<T>(), nullptr,
                                             std::move(patch), std::move(options));
    }

  private:
    SubResourceOperations* operations_;
    std::string sub_resource_;
};

}  // namespace ctrl::client
