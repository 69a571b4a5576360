#pragma once

#include <ostream>
#include <string_view>
#include <utility>

#include "ctrl/client/client.hpp"
#include "ctrl/client/object_form.hpp"
#include "ctrl/core/await_safe_function.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"

// Bringing an object to the state a reconciler wants, writing only what changed: controller-runtime's
// CreateOrUpdate and CreateOrPatch.
namespace ctrl::controllerutil {

// What CreateOrUpdate or CreateOrPatch did (controllerutil.OperationResult).
enum class OperationResult {
    kNone,               // "unchanged": nothing was written
    kCreated,            // "created"
    kUpdated,            // "updated": the object was written (not its status subresource)
    kUpdatedStatus,      // "updatedStatus": the object and its status subresource were written
    kUpdatedStatusOnly,  // "updatedStatusOnly": only the status subresource was written
};

// controller-runtime's strings, which complete "Deployment default/web has been ...".
std::string_view ToString(OperationResult result);
std::ostream& operator<<(std::ostream& os, OperationResult result);

// Changes the object CreateOrUpdate / CreateOrPatch were given (captured by reference) into the
// state the caller wants (controllerutil.MutateFn). It must not change the name or namespace. An
// error stops the call, with nothing written. The calls are awaited, so a temporary lambda that
// captures by copy does not compile (AwaitSafeFunction): capture by reference, or name it.
using MutateFunction = AwaitSafeFunction<Status()>;

// What the templates call: form is the object's (client::FormOf).
Task<StatusOr<OperationResult>> CreateOrUpdateObject(Context ctx, client::Client& client, Object& object,
                                                     client::ObjectForm form, MutateFunction mutate);
Task<StatusOr<OperationResult>> CreateOrPatchObject(Context ctx, client::Client& client, Object& object,
                                                    client::ObjectForm form, MutateFunction mutate);

// Reads the object named by object's namespace and name into object, then calls mutate
// (controllerutil.CreateOrUpdate). When there was none: creates it (kCreated). Otherwise: updates
// it when mutate changed its JSON (kUpdated), and sends nothing when it did not (kNone). object's
// apiVersion and kind name its kind (a typed kind sets them itself); object holds the server's
// answer after. Any other error of the read, of mutate or of the write is returned. For a kind
// with a status subresource, a status changed by mutate is not written (the server ignores it
// in an update). Beware, as in Go: a field mutate clears that the server defaults makes every
// call an update.
//   auto result = co_await controllerutil::CreateOrUpdate(ctx, client, config_map, [&] {
//       config_map.SetDataValue("color", "blue");
//       return OkStatus();
//   });
template <client::ClientObject T>
Task<StatusOr<OperationResult>> CreateOrUpdate(Context ctx, client::Client& client, T& object, MutateFunction mutate) {
    return CreateOrUpdateObject(std::move(ctx), client, object, client::FormOf<T>(), std::move(mutate));
}

// As CreateOrUpdate, but writes the change as JSON merge patches (controllerutil.CreateOrPatch):
// one of everything but status when that changed (kUpdated), then one of the status subresource
// when status changed (kUpdatedStatus after the first, kUpdatedStatusOnly alone); nothing when
// nothing changed (kNone). A created object is created with the status mutate gave it, which the
// server drops for a kind with a status subresource: requeue to set it. When the status patch
// fails after the first patch succeeded, its error is returned (the object was updated).
template <client::ClientObject T>
Task<StatusOr<OperationResult>> CreateOrPatch(Context ctx, client::Client& client, T& object, MutateFunction mutate) {
    return CreateOrPatchObject(std::move(ctx), client, object, client::FormOf<T>(), std::move(mutate));
}

}  // namespace ctrl::controllerutil
