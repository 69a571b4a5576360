#include "ctrl/cache/internal/version_waiters.hpp"

#include <functional>
#include <utility>
#include <vector>

namespace ctrl::cache {

uint64_t ComparableResourceVersion(std::string_view resource_version) {
    // At most 19 digits: every such number fits 64 bits (etcd's revisions are int64).
    if (resource_version.empty() || resource_version.size() > 19 || resource_version.front() == '0')
        return 0;
    uint64_t number = 0;
    for (const char digit : resource_version) {
        if (digit < '0' || digit > '9')
            return 0;
        number = number * 10 + static_cast<uint64_t>(digit - '0');
    }
    return number;
}

namespace internal {

bool VersionWaiters::Reflects(const WrittenVersion& written, std::string_view namespace_name,
                              std::string_view name) const {
    if (written.number != 0)
        return Observed() >= written.number;
    const CachedObject held = store_.Get(namespace_name, name);
    if (!held)
        return written.deleted;
    return held.ResourceVersion() == written.text;
}

void VersionWaiters::Advance(std::string_view resource_version) {
    // One writer (the reflector): a plain maximum. A relist answers a version at least as new.
    if (const uint64_t number = ComparableResourceVersion(resource_version); number > Observed())
        observed_.store(number, std::memory_order_seq_cst);
    if (waiting_.load(std::memory_order_seq_cst) == 0)
        return;
    std::vector<Resume<Status>> woken;
    {
        std::lock_guard lock(mu_);
        for (auto it = waiters_.begin(); it != waiters_.end();) {
            if (Reflects(it->second.written, it->second.namespace_name, it->second.name)) {
                woken.push_back(std::move(it->second.resume));
                it = waiters_.erase(it);
                waiting_.fetch_sub(1);
            } else {
                ++it;
            }
        }
    }
    for (Resume<Status>& resume : woken)
        resume(OkStatus());
}

void VersionWaiters::ReleaseAll() {
    std::map<uint64_t, Waiter> released;
    {
        std::lock_guard lock(mu_);
        released.swap(waiters_);
        waiting_.store(0);
    }
    for (auto& [id, waiter] : released)
        waiter.resume(OkStatus());
}

Task<Status> VersionWaiters::Wait(Context ctx, WrittenVersion written, std::string namespace_name, std::string name) {
    // Reflected already: no wait, whatever is left of ctx (a read past its deadline still answers).
    if (Reflects(written, namespace_name, name))
        co_return OkStatus();
    uint64_t id = 0;
    // Named, not built inside the co_await expression (GCC 12 destroys such temporaries twice).
    // Counted before the check, both under the lock: an Advance either sees the count (and then
    // this waiter, once the lock is free) or its version is what the check sees.
    std::function<void(Resume<Status>)> enlist = [&](Resume<Status> resume) {
        {
            std::lock_guard lock(mu_);
            waiting_.fetch_add(1);
            if (!Reflects(written, namespace_name, name)) {
                id = next_id_++;
                waiters_.emplace(id, Waiter{written, namespace_name, name, std::move(resume)});
                return;
            }
            waiting_.fetch_sub(1);
        }
        resume(OkStatus());
    };
    Status waited = co_await Suspend<Status>(std::move(ctx), std::move(enlist));
    if (id != 0) {
        std::lock_guard lock(mu_);
        if (waiters_.erase(id) > 0)
            waiting_.fetch_sub(1);
    }
    co_return waited;
}

}  // namespace internal
}  // namespace ctrl::cache
