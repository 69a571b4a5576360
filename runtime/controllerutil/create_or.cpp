#include "ctrl/controllerutil/create_or.hpp"

#include <optional>
#include <string>

namespace ctrl::controllerutil {
namespace {

// Calls mutate, if any, and checks it left object's key alone (controllerutil's mutate).
Status Mutate(const MutateFunction& mutate, const ObjectKey& key, const Object& object) {
    if (!mutate)
        return OkStatus();
    CTRL_RETURN_IF_ERROR(mutate());
    if (const ObjectKey changed = object.Key(); changed != key) {
        return BadRequestError("the mutate function changed the object's name or namespace, from " + key.String() +
                               " to " + changed.String() + "; it must not");
    }
    return OkStatus();
}

// object's status, which it removes from object; nullopt when there is none. BadRequest when
// status is not a JSON object.
StatusOr<std::optional<Object>> TakeStatus(Object& object) {
    StatusOr<Object> status = object.NestedMap({"status"});
    if (IsNotFound(status.GetStatus()))
        return std::optional<Object>();
    if (!status.Ok())
        return status.GetStatus();
    object.RemoveNestedField({"status"});
    return std::optional<Object>(std::move(status).Value());
}

// A copy of object split into everything but status, and status.
struct StatusSplit {
    Object rest;
    std::optional<Object> status;
};
StatusOr<StatusSplit> SplitStatus(const Object& object) {
    StatusSplit split{object.DeepCopy(), std::nullopt};
    CTRL_ASSIGN_OR_RETURN(split.status, TakeStatus(split.rest));
    return split;
}

// Reads object by key; on NotFound mutates and creates it. kCreated when it created it, nullopt
// when object now holds the server's copy (the caller goes on), an error otherwise.
Task<StatusOr<std::optional<OperationResult>>> GetOrCreate(const Context& ctx, client::Client& client, Object& object,
                                                           client::ObjectForm form, const ObjectKey& key,
                                                           const MutateFunction& mutate) {
    client::GetOptions get_options;
    const Status got = co_await client.GetObject(ctx, key, object, form, std::move(get_options));
    if (got.Ok())
        co_return std::optional<OperationResult>();
    if (!IsNotFound(got))
        co_return got;
    CTRL_CO_RETURN_IF_ERROR(Mutate(mutate, key, object));
    client::CreateOptions create_options;
    CTRL_CO_RETURN_IF_ERROR(co_await client.CreateObject(ctx, object, form, std::move(create_options)));
    co_return std::optional<OperationResult>(OperationResult::kCreated);
}

}  // namespace

std::string_view ToString(OperationResult result) {
    switch (result) {
        case OperationResult::kNone:
            return "unchanged";
        case OperationResult::kCreated:
            return "created";
        case OperationResult::kUpdated:
            return "updated";
        case OperationResult::kUpdatedStatus:
            return "updatedStatus";
        case OperationResult::kUpdatedStatusOnly:
            return "updatedStatusOnly";
    }
    return "unknown";
}

std::ostream& operator<<(std::ostream& os, OperationResult result) {
    return os << ToString(result);
}

Task<StatusOr<OperationResult>> CreateOrUpdateObject(Context ctx, client::Client& client, Object& object,
                                                     client::ObjectForm form, MutateFunction mutate) {
    const ObjectKey key = object.Key();
    CTRL_CO_ASSIGN_OR_RETURN(const std::optional<OperationResult> created,
                             co_await GetOrCreate(ctx, client, object, form, key, mutate));
    if (created.has_value())
        co_return *created;

    const Object existing = object.DeepCopy();
    CTRL_CO_RETURN_IF_ERROR(Mutate(mutate, key, object));
    if (object == existing)
        co_return OperationResult::kNone;
    client::UpdateOptions update_options;
    CTRL_CO_RETURN_IF_ERROR(co_await client.UpdateObject(ctx, object, form, std::move(update_options)));
    co_return OperationResult::kUpdated;
}

Task<StatusOr<OperationResult>> CreateOrPatchObject(Context ctx, client::Client& client, Object& object,
                                                    client::ObjectForm form, MutateFunction mutate) {
    const ObjectKey key = object.Key();
    CTRL_CO_ASSIGN_OR_RETURN(const std::optional<OperationResult> created,
                             co_await GetOrCreate(ctx, client, object, form, key, mutate));
    if (created.has_value())
        co_return *created;

    // Both patches are computed from the object as read (Patch keeps a reference to original).
    const Object original = object.DeepCopy();
    CTRL_CO_ASSIGN_OR_RETURN(const StatusSplit before, SplitStatus(original));
    CTRL_CO_RETURN_IF_ERROR(Mutate(mutate, key, object));
    CTRL_CO_ASSIGN_OR_RETURN(const StatusSplit after, SplitStatus(object));

    OperationResult result = OperationResult::kNone;
    if (!(before.rest == after.rest)) {
        const client::Patch patch = client::MergeFrom(original);
        client::PatchOptions patch_options;
        CTRL_CO_RETURN_IF_ERROR(co_await client.PatchObject(ctx, object, form, patch, std::move(patch_options)));
        result = OperationResult::kUpdated;
    }
    if ((before.status.has_value() || after.status.has_value()) && !(before.status == after.status)) {
        if (result == OperationResult::kUpdated) {
            // object now holds the server's answer, whose status is the old one: put back the wanted one.
            if (after.status.has_value()) {
                CTRL_CO_RETURN_IF_ERROR(object.SetNestedField({"status"}, *after.status));
            } else {
                object.RemoveNestedField({"status"});
            }
        }
        const client::Patch status_patch = client::MergeFrom(original);
        client::SubResourcePatchOptions status_options;
        const std::string sub_resource = "status";
        CTRL_CO_RETURN_IF_ERROR(co_await client.PatchSubResource(ctx, sub_resource, object, form, nullptr, status_patch,
                                                                 std::move(status_options)));
        result =
            result == OperationResult::kUpdated ? OperationResult::kUpdatedStatus : OperationResult::kUpdatedStatusOnly;
    }
    co_return result;
}

}  // namespace ctrl::controllerutil
