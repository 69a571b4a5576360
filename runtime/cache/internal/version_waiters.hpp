#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "ctrl/cache/store.hpp"
#include "ctrl/cache/written_version.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/resume.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::cache::internal {

// What an informer's store reflects of this process's writes, and the reads waiting for more
// (read-your-own-writes). The reflector calls Advance after it applied a list or an event (a
// bookmark too); a wait ends then, never by a poll. A write is reflected when the store has seen a
// resourceVersion at least the written one (resourceVersions of one resource compare: a watch
// delivers them in order, so every change up to it is in), or, for a resourceVersion that does
// not compare, when the store holds the written object at exactly that version (for a delete: or
// no longer holds it). Thread-safe.
class VersionWaiters final {
  public:
    explicit VersionWaiters(const Store& store) : store_(store) {}

    // The highest comparable resourceVersion applied to the store; 0 before any.
    uint64_t Observed() const { return observed_.load(std::memory_order_acquire); }
    // Whether the store reflects the write of namespace_name/name.
    bool Reflects(const WrittenVersion& written, std::string_view namespace_name, std::string_view name) const;
    // The store now holds what resource_version says (a list's, an event's, a bookmark's): wakes
    // the waits it satisfies.
    void Advance(std::string_view resource_version);
    // Waits until Reflects: OK then (at once when it already does, even with ctx done); ctx's
    // error (Cancelled, or Timeout at its deadline) if that comes first.
    Task<Status> Wait(Context ctx, WrittenVersion written, std::string namespace_name, std::string name);
    // Ends every wait with OK (the informer stopped: the read answers from what there is).
    void ReleaseAll();

  private:
    struct Waiter {
        WrittenVersion written;
        std::string namespace_name;
        std::string name;
        Resume<Status> resume;
    };

    const Store& store_;
    std::atomic<uint64_t> observed_{0};
    std::atomic<std::size_t> waiting_{0};
    std::mutex mu_;
    std::map<uint64_t, Waiter> waiters_;  // by id
    uint64_t next_id_ = 1;
};

}  // namespace ctrl::cache::internal
