// What calls that take a callable and may be awaited accept (ctest awaited_callables_*, label tool;
// test/support/compile_check.sh). As it is, this file compiles (and builds with the project): named
// callables that capture by copy, [&] and captureless lambdas, written inside co_await. With one
// CTRL_COMPILE_FAIL_* macro defined, a temporary lambda capturing a std::string by copy, which GCC 12
// destroys twice inside a co_await expression, must not compile.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/api/config_map.hpp"
#include "ctrl/cache/cache.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/client/retry.hpp"
#include "ctrl/controllerutil/create_or.hpp"
#include "ctrl/core/resume.hpp"
#include "ctrl/handler/enqueue_requests_from_map_func.hpp"

namespace awaited_callables {

using ctrl::Context;
using ctrl::GroupVersionKind;
using ctrl::Object;
using ctrl::Status;
using ctrl::Task;

inline Task<Status> NaturalForms(ctrl::cache::Cache& cache, ctrl::client::Client& client, Context ctx,
                                 GroupVersionKind gvk, std::string key) {
    // By copy: named first, then passed by name.
    const auto extract = [key](const Object& o) {
        return std::vector<std::string>{std::string(o.Label(key).value_or(""))};
    };
    CTRL_CO_RETURN_IF_ERROR(co_await cache.IndexField(ctx, gvk, "data." + key, extract));
    // By reference, or capturing nothing: written inside the call.
    CTRL_CO_RETURN_IF_ERROR(co_await cache.IndexField(ctx, gvk, "spec.x", [&key](const Object& o) {
        return std::vector<std::string>{std::string(o.Label(key).value_or(""))};
    }));
    ctrl::api::ConfigMap cm;
    CTRL_CO_RETURN_IF_ERROR(co_await ctrl::client::RetryOnConflict(
        ctx, ctrl::client::kDefaultRetry,
        [&]() -> Task<Status> { co_return co_await client.Get(ctx, ctrl::ObjectKey("default", key), cm); }));
    const auto mutate = [key, &cm]() {
        cm.SetDataValue("key", key);
        return ctrl::OkStatus();
    };
    auto result = co_await ctrl::controllerutil::CreateOrUpdate(ctx, client, cm, mutate);
    CTRL_CO_RETURN_IF_ERROR(result.GetStatus());
    const auto map = [key](const Context&, const Object&) {
        return std::vector<ctrl::reconcile::Request>{ctrl::reconcile::Request("default", key)};
    };
    const auto handler = ctrl::handler::EnqueueRequestsFromMapFunc(map);
    co_return handler ? ctrl::OkStatus() : ctrl::InternalError("no handler");
}

#if defined(CTRL_COMPILE_FAIL_INDEX_FIELD)
inline Task<Status> Refused(ctrl::cache::Cache& cache, Context ctx, GroupVersionKind gvk, std::string key) {
    co_return co_await cache.IndexField(ctx, gvk, "data." + key, [key](const Object& o) {
        return std::vector<std::string>{std::string(o.Label(key).value_or(""))};
    });
}
#elif defined(CTRL_COMPILE_FAIL_RETRY_ON_CONFLICT)
inline Task<Status> Refused(Context ctx, std::string key) {
    co_return co_await ctrl::client::RetryOnConflict(ctx, ctrl::client::kDefaultRetry,
                                                     [key]() -> Task<Status> { co_return ctrl::NotFoundError(key); });
}
#elif defined(CTRL_COMPILE_FAIL_CREATE_OR_UPDATE)
inline Task<Status> Refused(Context ctx, ctrl::client::Client& client, ctrl::api::ConfigMap& cm, std::string key) {
    auto result = co_await ctrl::controllerutil::CreateOrUpdate(ctx, client, cm, [key, &cm]() {
        cm.SetDataValue("key", key);
        return ctrl::OkStatus();
    });
    co_return result.GetStatus();
}
#elif defined(CTRL_COMPILE_FAIL_MAP_FUNC)
inline auto Refused(std::string key) {
    return ctrl::handler::EnqueueRequestsFromMapFunc([key](const Context&, const Object&) {
        return std::vector<ctrl::reconcile::Request>{{"default", key}};
    });
}
#elif defined(CTRL_COMPILE_FAIL_SUSPEND)
inline Task<Status> Refused(std::string word) {
    co_return co_await ctrl::Suspend<Status>(
        [word](ctrl::Resume<Status> resume) { resume(ctrl::NotFoundError(word)); });
}
#endif

}  // namespace awaited_callables
