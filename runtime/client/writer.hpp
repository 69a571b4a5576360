#pragma once

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

// Knows how to create, update, patch and delete objects (client.Writer). On success the object
// passed in holds the server's answer (resourceVersion, uid, defaults); on failure it is
// unchanged. Metadata-only objects can be patched and deleted, not created or updated.
// Option values (option_values.hpp) follow the object or the patch:
//   co_await client.Create(ctx, pod, FieldOwner("my-operator"), DryRunAll());
//   co_await client.Patch(ctx, pod, MergeFrom(original));
//   co_await client.Delete(ctx, pod, GracePeriodSeconds(0));
class Writer {
  public:
    virtual ~Writer() = default;

    // Creates the object. AlreadyExists when its name is taken. Options: DryRunAll, FieldOwner,
    // FieldValidation, CreateOptions.
    template <ClientObject T, CreateOption... Options>
    Task<Status> Create(Context ctx, T& object, const Options&... options) {
        CreateOptions create;
        (options.ApplyToCreate(create), ...);
        return CreateObject(std::move(ctx), object, FormOf<T>(), std::move(create));
    }
    // Replaces the object (spec and metadata; status only through Status() where the kind has a
    // status subresource). Conflict when its resourceVersion is stale. Options as Create's.
    template <ClientObject T, UpdateOption... Options>
    Task<Status> Update(Context ctx, T& object, const Options&... options) {
        UpdateOptions update;
        (options.ApplyToUpdate(update), ...);
        return UpdateObject(std::move(ctx), object, FormOf<T>(), std::move(update));
    }
    // Patches the object (patch.hpp: MergeFrom, StrategicMergeFrom, JsonPatchFrom, Apply, RawPatch).
    // Options as Create's, and ForceOwnership for an apply patch.
    template <ClientObject T, PatchOption... Options>
    Task<Status> Patch(Context ctx, T& object, client::Patch patch, const Options&... options) {
        PatchOptions patch_options;
        (options.ApplyToPatch(patch_options), ...);
        return PatchObject(std::move(ctx), object, FormOf<T>(), patch, std::move(patch_options));
    }
    // Deletes the object its key names. The object is not changed. Options: DryRunAll,
    // GracePeriodSeconds, PropagationPolicy, DeletePreconditions, DeleteOptions.
    template <ClientObject T, DeleteOption... Options>
    Task<Status> Delete(Context ctx, T& object, const Options&... options) {
        DeleteOptions deletion;
        (options.ApplyToDelete(deletion), ...);
        return DeleteObject(std::move(ctx), object, FormOf<T>(), std::move(deletion));
    }
    // Deletes every object of object's kind that options select (a deletecollection request).
    // Options: InNamespace, MatchingLabels(Selector), MatchingFields(Selector), the Delete
    // options, DeleteAllOfOptions.
    template <ClientObject T, DeleteAllOfOption... Options>
    Task<Status> DeleteAllOf(Context ctx, T& object, const Options&... options) {
        DeleteAllOfOptions selected;
        (options.ApplyToDeleteAllOf(selected), ...);
        return DeleteAllOfObjects(std::move(ctx), object, FormOf<T>(), std::move(selected));
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
