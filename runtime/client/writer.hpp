#pragma once

#include <utility>

#include "runtime/client/object_form.hpp"
#include "runtime/client/options.hpp"
#include "runtime/client/patch.hpp"
#include "runtime/core/context.hpp"
#include "runtime/core/object.hpp"
#include "runtime/core/status.hpp"
#include "runtime/core/task.hpp"

namespace ctrl::client {

// Knows how to create, update, patch and delete objects (client.Writer). On success the object
// passed in holds the server's answer (resourceVersion, uid, defaults); on failure it is
// unchanged. Metadata-only objects can be patched and deleted, not created or updated.
// Options are separate overloads, not default arguments (GCC 12; see Reader).
class Writer {
  public:
    virtual ~Writer() = default;

    template <ClientObject T>
    Task<Status> Create(Context ctx, T& object) {
        return CreateObject(std::move(ctx), object, FormOf<T>(), CreateOptions());
    }
    template <ClientObject T>
    Task<Status> Create(Context ctx, T& object, CreateOptions options) {
        return CreateObject(std::move(ctx), object, FormOf<T>(), std::move(options));
    }
    // Replaces the object (spec and metadata; status only through Status() where the kind has a
    // status subresource). Conflict when its resourceVersion is stale.
    template <ClientObject T>
    Task<Status> Update(Context ctx, T& object) {
        return UpdateObject(std::move(ctx), object, FormOf<T>(), UpdateOptions());
    }
    template <ClientObject T>
    Task<Status> Update(Context ctx, T& object, UpdateOptions options) {
        return UpdateObject(std::move(ctx), object, FormOf<T>(), std::move(options));
    }
    template <ClientObject T>
    Task<Status> Patch(Context ctx, T& object, client::Patch patch) {
        return PatchObject(std::move(ctx), object, FormOf<T>(), patch, PatchOptions());
    }
    template <ClientObject T>
    Task<Status> Patch(Context ctx, T& object, client::Patch patch, PatchOptions options) {
        return PatchObject(std::move(ctx), object, FormOf<T>(), patch, std::move(options));
    }
    // Deletes the object its key names. The object is not changed.
    template <ClientObject T>
    Task<Status> Delete(Context ctx, T& object) {
        return DeleteObject(std::move(ctx), object, FormOf<T>(), DeleteOptions());
    }
    template <ClientObject T>
    Task<Status> Delete(Context ctx, T& object, DeleteOptions options) {
        return DeleteObject(std::move(ctx), object, FormOf<T>(), std::move(options));
    }
    // Deletes every object of object's kind that options select (a deletecollection request).
    template <ClientObject T>
    Task<Status> DeleteAllOf(Context ctx, T& object) {
        return DeleteAllOfObjects(std::move(ctx), object, FormOf<T>(), DeleteAllOfOptions());
    }
    template <ClientObject T>
    Task<Status> DeleteAllOf(Context ctx, T& object, DeleteAllOfOptions options) {
        return DeleteAllOfObjects(std::move(ctx), object, FormOf<T>(), std::move(options));
    }

    // What the templates call; implementations override these.
    virtual Task<Status> CreateObject(Context ctx, Object& object, ObjectForm form, CreateOptions options) = 0;
    virtual Task<Status> UpdateObject(Context ctx, Object& object, ObjectForm form, UpdateOptions options) = 0;
    virtual Task<Status> PatchObject(Context ctx, Object& object, ObjectForm form, client::Patch patch,
                                     PatchOptions options) = 0;
    virtual Task<Status> DeleteObject(Context ctx, Object& object, ObjectForm form, DeleteOptions options) = 0;
    virtual Task<Status> DeleteAllOfObjects(Context ctx, Object& object, ObjectForm form,
                                            DeleteAllOfOptions options) = 0;
};

}  // namespace ctrl::client
