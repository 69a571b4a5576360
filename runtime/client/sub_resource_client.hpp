#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "ctrl/client/object_form.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/client/options.hpp"
#include "ctrl/client/patch.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"

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
    // itself (status). The answer goes into body when given, else into object when it is of
    // object's kind (an answer of another kind leaves object as it was).
    virtual Task<Status> UpdateSubResource(Context ctx, std::string sub_resource, Object& object, ObjectForm form,
                                           Object* body, SubResourceUpdateOptions options) = 0;
    // PATCH <object path>/<subresource> with patch computed from object (or from body, when
    // given); the answer goes where UpdateSubResource puts it.
    virtual Task<Status> PatchSubResource(Context ctx, std::string sub_resource, Object& object, ObjectForm form,
                                          Object* body, Patch patch, SubResourcePatchOptions options) = 0;
};

// One subresource of a client (client.SubResourceClient): Client::Status() for "status",
// Client::SubResource("scale") for others. A trivially destructible handle (a pointer and the
// name's view), so `co_await client.Status().Update(ctx, obj)` is safe under GCC 12: the client
// and the name's characters outlive it.
//   co_await client.Status().Update(ctx, widget);
//   co_await client.SubResource("eviction").Create(ctx, pod, eviction);
class SubResourceClient {
  public:
    SubResourceClient(SubResourceOperations& operations, std::string_view sub_resource)
        : operations_(&operations), sub_resource_(sub_resource) {}

    std::string_view Name() const { return sub_resource_; }

    // Reads the subresource of object into sub_resource_object (a Scale for "scale").
    template <ClientObject T, SubResourceGetOption... Options>
    Task<Status> Get(Context ctx, const T& object, Object& sub_resource_object, const Options&... options) {
        SubResourceGetOptions get;
        (options.ApplyToSubResourceGet(get), ...);
        return operations_->GetSubResource(std::move(ctx), std::string(sub_resource_), object, FormOf<T>(),
                                           sub_resource_object, std::move(get));
    }
    // Creates sub_resource_object under object (an Eviction, a TokenRequest); it holds the answer.
    template <ClientObject T, SubResourceCreateOption... Options>
    Task<Status> Create(Context ctx, const T& object, Object& sub_resource_object, const Options&... options) {
        SubResourceCreateOptions create;
        (options.ApplyToSubResourceCreate(create), ...);
        return operations_->CreateSubResource(std::move(ctx), std::string(sub_resource_), object, FormOf<T>(),
                                              sub_resource_object, std::move(create));
    }
    // Writes the subresource from object itself (status), which then holds the answer.
    template <ClientObject T, SubResourceUpdateOption... Options>
    Task<Status> Update(Context ctx, T& object, const Options&... options) {
        SubResourceUpdateOptions update;
        (options.ApplyToSubResourceUpdate(update), ...);
        return operations_->UpdateSubResource(std::move(ctx), std::string(sub_resource_), object, FormOf<T>(), nullptr,
                                              std::move(update));
    }
    // Writes the subresource from body (a Scale); body holds the answer.
    template <ClientObject T, SubResourceUpdateOption... Options>
    Task<Status> Update(Context ctx, T& object, Object& body, const Options&... options) {
        SubResourceUpdateOptions update;
        (options.ApplyToSubResourceUpdate(update), ...);
        return operations_->UpdateSubResource(std::move(ctx), std::string(sub_resource_), object, FormOf<T>(), &body,
                                              std::move(update));
    }
    // Patches the subresource; object holds the answer.
    template <ClientObject T, SubResourcePatchOption... Options>
    Task<Status> Patch(Context ctx, T& object, client::Patch patch, const Options&... options) {
        SubResourcePatchOptions patch_options;
        (options.ApplyToSubResourcePatch(patch_options), ...);
        return operations_->PatchSubResource(std::move(ctx), std::string(sub_resource_), object, FormOf<T>(), nullptr,
                                             patch, std::move(patch_options));
    }
    // Patches the subresource; body holds the answer (a Scale).
    template <ClientObject T, SubResourcePatchOption... Options>
    Task<Status> Patch(Context ctx, T& object, Object& body, client::Patch patch, const Options&... options) {
        SubResourcePatchOptions patch_options;
        (options.ApplyToSubResourcePatch(patch_options), ...);
        return operations_->PatchSubResource(std::move(ctx), std::string(sub_resource_), object, FormOf<T>(), &body,
                                             patch, std::move(patch_options));
    }

  private:
    SubResourceOperations* operations_;
    std::string_view sub_resource_;
};

}  // namespace ctrl::client
