#pragma once

#include <utility>

#include "ctrl/client/object_form.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/client/options.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::client {

// Knows how to read objects (client.Reader): the API server and the cache both implement it.
// Callers use the templates, which take the object's form from its type, and option values
// (option_values.hpp) after the object:
//   api::Pod pod;
//   CTRL_CO_RETURN_IF_ERROR(co_await client.Get(ctx, {"default", "web-0"}, pod));
//   api::PodList pods;
//   CTRL_CO_RETURN_IF_ERROR(co_await client.List(ctx, pods, InNamespace("default"), MatchingLabels("app", "web")));
// Every argument form shown is safe inside co_await on GCC 12: keys and option values are built
// by constructors, never as aggregates (docs/decisions.md, decision 16).
// The object or list passed in is written only on success; on failure it is left as it was,
// except that a List may have been cleared. The caller keeps it alive until the Task ends.
class Reader {
  public:
    virtual ~Reader() = default;

    // Reads the object key names into object, whose apiVersion and kind say what to read (a
    // typed kind sets them itself). NotFound when there is none; NoMatch when the server serves
    // no such kind. Options: ResourceVersion, GetOptions.
    template <ClientObject T, GetOption... Options>
    Task<Status> Get(Context ctx, ObjectKey key, T& object, const Options&... options) {
        GetOptions get;
        (options.ApplyToGet(get), ...);
        return GetObject(std::move(ctx), std::move(key), object, FormOf<T>(), std::move(get));
    }

    // Reads the objects options select into list, whose apiVersion and kind name the list kind
    // ("v1", "PodList"; a typed list sets them itself). One page with Limit; the list's
    // Continue() then names the next. Options: InNamespace, MatchingLabels(Selector),
    // MatchingFields(Selector), Limit, Continue, ResourceVersion, ListOptions.
    template <ClientObjectList L, ListOption... Options>
    Task<Status> List(Context ctx, L& list, const Options&... options) {
        ListOptions selected;
        (options.ApplyToList(selected), ...);
        return ListObjects(std::move(ctx), list, ListFormOf<L>(), std::move(selected));
    }

    // What the templates call; implementations override these.
    virtual Task<Status> GetObject(Context ctx, ObjectKey key, Object& object, ObjectForm form, GetOptions options) = 0;
    virtual Task<Status> ListObjects(Context ctx, ObjectList& list, ObjectForm form, ListOptions options) = 0;
};

}  // namespace ctrl::client
