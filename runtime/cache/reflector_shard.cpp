// Reflector: a target that is one shard of its resource (ListWatchTarget::shard).

#include <mutex>
#include <set>
#include <string>

#include "ctrl/cache/internal/reflector_state.hpp"
#include "ctrl/cache/reflector.hpp"
#include "ctrl/core/notification.hpp"

namespace ctrl::cache {

namespace {

// Whether this is the first time this process saw the server ignore shardSelector for resource.
bool FirstIgnoredSelector(const std::string& resource) {
    static std::mutex mu;
    static std::set<std::string> seen;
    std::lock_guard lock(mu);
    return seen.insert(resource).second;
}

}  // namespace

bool Reflector::InShard(const Object& object, State& state) {
    if (target_.shard.Keeps(object))
        return true;
    // The server filters with its ShardedListAndWatch gate on, and an object's uid and namespace
    // never change: an object outside the shard means the server ignored the selector.
    {
        std::lock_guard lock(mu_);
        ++stats_.outside_shard;
    }
    if (FirstIgnoredSelector(target_.resource.String()))
        state.log.Info(
            "the API server ignored shardSelector (is its feature gate ShardedListAndWatch off?): filtering "
            "on the client; the cache's memory and watch traffic are those of every object of the resource",
            "selector", target_.shard.Selector());
    return false;
}

Task<Status> Reflector::HoldNothing(Context& ctx, State& state) {
    if (!HasSynced()) {
        state.replacement.emplace(store_.BeginReplace());
        state.list_started = std::chrono::steady_clock::now();
        state.list_pages = 0;
        CTRL_CO_RETURN_IF_ERROR(ApplyList(state));
        state.log.V(1).Info("the shard owns no bucket: holding no object until it does");
    }
    const Notification never;
    co_return co_await never.Wait(ctx);
}

}  // namespace ctrl::cache
