#pragma once

#include <utility>

#include "runtime/client/object_form.hpp"
#include "runtime/client/options.hpp"
#include "runtime/core/context.hpp"
#include "runtime/core/gvk.hpp"
#include "runtime/core/object.hpp"
#include "runtime/core/object_list.hpp"
#include "runtime/core/status.hpp"
#include "runtime/core/task.hpp"

namespace ctrl::client {

// Knows how to read objects (client.Reader): the API server and the cache both implement it.
// Callers use the templates, which take the object's form from its type:
//   const ObjectKey key{"default", "web-0"};
//   api::Pod pod;
//   CTRL_CO_RETURN_IF_ERROR(co_await client.Get(ctx, key, pod));
//   const ListOptions in_default{.namespace_name = "default"};
//   api::PodList pods;
//   CTRL_CO_RETURN_IF_ERROR(co_await client.List(ctx, pods, in_default));
// The object or list passed in is written only on success; on failure it is left as it was,
// except that a List may have been cleared. The caller keeps it alive until the Task ends.
// Options are separate overloads, not default arguments: under GCC 12 a defaulted argument of a
// co_await'ed call is destroyed twice (docs/architecture.md). For the same reason, in a coroutine
// name a key or options before the call: `ObjectKey key{ns, name}; co_await client.Get(ctx, key, pod);`.
class Reader {
  public:
    virtual ~Reader() = default;

    // Reads the object key names into object, whose apiVersion and kind say what to read (a
    // typed kind sets them itself). NotFound when there is none; NoMatch when the server serves
    // no such kind.
    template <ClientObject T>
    Task<Status> Get(Context ctx, ObjectKey key, T& object) {
        return GetObject(std::move(ctx), std::move(key), object, FormOf<T>(), GetOptions());
    }
    template <ClientObject T>
    Task<Status> Get(Context ctx, ObjectKey key, T& object, GetOptions options) {
        return GetObject(std::move(ctx), std::move(key), object, FormOf<T>(), std::move(options));
    }

    // Reads the objects options select into list, whose apiVersion and kind name the list kind
    // ("v1", "PodList"; a typed list sets them itself). One page when options.limit is set; the
    // list's Continue() then names the next.
    template <ClientObjectList L>
    Task<Status> List(Context ctx, L& list) {
        return ListObjects(std::move(ctx), list, ListFormOf<L>(), ListOptions());
    }
    template <ClientObjectList L>
    Task<Status> List(Context ctx, L& list, ListOptions options) {
        return ListObjects(std::move(ctx), list, ListFormOf<L>(), std::move(options));
    }

    // What the templates call; implementations override these.
    virtual Task<Status> GetObject(Context ctx, ObjectKey key, Object& object, ObjectForm form, GetOptions options) = 0;
    virtual Task<Status> ListObjects(Context ctx, ObjectList& list, ObjectForm form, ListOptions options) = 0;
};

}  // namespace ctrl::client
