// Cache: read-your-own-writes. ObserveWrite records the writes of this process per kind and key
// (Entry::written); a cached read of a recorded object, or a list of its namespace, waits until
// the informer holding it reflects the write (internal::VersionWaiters), at most
// CacheOptions::read_your_writes_timeout.

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/cache/cache.hpp"
#include "ctrl/cache/internal/cache_entry.hpp"
#include "ctrl/core/label_selector.hpp"
#include "ctrl/log/log.hpp"

namespace ctrl::cache {
namespace {

using Pending = internal::WrittenVersions::Pending;

// The informer among informers that holds namespace_name's objects; null when none does.
Informer* HolderOf(const std::vector<Informer*>& informers, std::string_view namespace_name) {
    for (Informer* informer : informers) {
        const ListWatchTarget& target = informer->Target();
        if (!target.namespaced || target.namespace_name.empty() || target.namespace_name == namespace_name)
            return informer;
    }
    return nullptr;
}

// Whether the informer will ever see a write of object: not when its label selector leaves the
// object out now and its store does not hold it (no event will come: neither an add nor the
// delete that leaving the selection makes).
bool WillSee(const Informer& informer, const client::ObservedWrite& write, std::string_view namespace_name) {
    const std::string& selector = informer.Target().label_selector;
    if (selector.empty() || write.object == nullptr)
        return true;
    StatusOr<LabelSelector> parsed = LabelSelector::Parse(selector);
    if (!parsed.Ok() || parsed->Matches(write.object->Labels()))
        return true;
    return static_cast<bool>(informer.GetStore().Get(namespace_name, write.name));
}

std::vector<Pending> PendingFor(const internal::WrittenVersions& written, std::string_view namespace_name,
                                const std::string* name) {
    if (name == nullptr)
        return written.In(namespace_name);
    std::vector<Pending> pending;
    if (std::optional<WrittenVersion> one = written.Find(namespace_name, *name))
        pending.push_back(Pending{std::string(namespace_name), *name, std::move(*one)});
    return pending;
}

// The pending writes a read would see (name: one object's; null: namespace_name's) that their
// informer does not reflect yet, each with that informer; forgets those it reflects.
std::vector<std::pair<Informer*, Pending>> UnseenWrites(internal::WrittenVersions& written,
                                                        const std::vector<Informer*>& informers,
                                                        std::string_view namespace_name, const std::string* name) {
    std::vector<std::pair<Informer*, Pending>> unseen;
    for (Pending& pending : PendingFor(written, namespace_name, name)) {
        Informer* informer = HolderOf(informers, pending.namespace_name);
        if (informer == nullptr || informer->Reflects(pending.written, pending.namespace_name, pending.name))
            written.Forget(pending.namespace_name, pending.name, pending.written);
        else
            unseen.emplace_back(informer, std::move(pending));
    }
    return unseen;
}

std::string KeyOf(const Pending& pending) {
    return pending.namespace_name.empty() ? pending.name : pending.namespace_name + "/" + pending.name;
}

}  // namespace

Cache::WriteWaitMetrics::WriteWaitMetrics(metrics::Registry& registry)
    : waits(registry.AddCounter("ctrl_cache_read_your_writes_waits_total",
                                "Cached reads that waited for the informer to see a write of this process, by kind.",
                                {"gvk"})),
      wait_seconds(registry.AddHistogram("ctrl_cache_read_your_writes_wait_seconds",
                                         "How long cached reads waited for the informer to see a write of this "
                                         "process, by kind.",
                                         {"gvk"}, {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10})),
      timeouts(registry.AddCounter("ctrl_cache_read_your_writes_timeouts_total",
                                   "Cached reads that answered before the informer saw a write of this process "
                                   "(read_your_writes_timeout passed), by kind.",
                                   {"gvk"})),
      unwaited(registry.AddCounter("ctrl_cache_read_your_writes_unwaited_total",
                                   "Synchronous cached reads (GetSharedNow, ListSharedNow) that answered before the "
                                   "informer saw a write of this process, as they cannot wait, by kind.",
                                   {"gvk"})) {}

void Cache::ObserveWrite(const client::ObservedWrite& write) {
    if (options_.read_your_writes_timeout.count() <= 0 || write.name.empty())
        return;
    if (write.resource_version.empty() && !write.deleted)
        return;
    // A delete answered by a Status only: reflected once the object is gone.
    const WrittenVersion written = MakeWrittenVersion(write.resource_version, write.deleted);
    std::lock_guard lock(mu_);
    for (auto& [key, entry] : entries_)
        if (key.first.group == write.gvk.group && key.first.kind == write.gvk.kind)
            RecordWriteLocked(*entry, write, written);
}

void Cache::RecordWriteLocked(Entry& entry, const client::ObservedWrite& write, const WrittenVersion& written) {
    const std::string_view namespace_name = entry.mapping.Namespaced() ? write.namespace_name : std::string_view();
    std::vector<Informer*> informers;
    for (const std::shared_ptr<Informer>& informer : entry.scope->informers)
        informers.push_back(informer.get());
    const Informer* holder = HolderOf(informers, namespace_name);
    if (holder == nullptr || !WillSee(*holder, write, namespace_name))
        return;
    entry.written.Record(namespace_name, write.name, written);
    if (entry.written.Size() < entry.forget_reflected_at)
        return;
    const std::size_t left = entry.written.ForgetReflected([&](const Pending& pending) {
        const Informer* informer = HolderOf(informers, pending.namespace_name);
        return informer == nullptr || informer->Reflects(pending.written, pending.namespace_name, pending.name);
    });
    entry.forget_reflected_at = std::max<std::size_t>(64, 2 * left);
}

bool Cache::WritesReflectedNow(const Entry& entry, const std::vector<Informer*>& informers,
                               std::string_view namespace_name, const std::string* name, bool count_unwaited) const {
    if (entry.written.Empty())
        return true;
    const bool reflected = UnseenWrites(entry.written, informers, namespace_name, name).empty();
    if (!reflected && count_unwaited)
        write_waits_->unwaited.WithLabelValues({entry.mapping.gvk.String()}).Inc();
    return reflected;
}

Task<Status> Cache::AwaitWrites(Context& ctx, const Entry& entry, const std::vector<Informer*>& informers,
                                std::string_view namespace_name, const std::string* name) {
    if (entry.written.Empty())
        co_return OkStatus();
    std::vector<std::pair<Informer*, Pending>> unseen = UnseenWrites(entry.written, informers, namespace_name, name);
    if (unseen.empty())
        co_return OkStatus();
    const std::string gvk = entry.mapping.gvk.String();
    write_waits_->waits.WithLabelValues({gvk}).Inc();
    const auto started = std::chrono::steady_clock::now();
    Context bounded = Context::WithTimeout(ctx, options_.read_your_writes_timeout);
    for (auto& [informer, pending] : unseen) {
        Status seen =
            co_await informer->WaitUntilReflects(bounded, pending.written, pending.namespace_name, pending.name);
        if (Status caller = ctx.Err(); !caller.Ok())
            co_return caller;
        if (!seen.Ok()) {
            write_waits_->timeouts.WithLabelValues({gvk}).Inc();
            log::Logger().WithName("cache").V(1).Info("read answered before the cache saw this process's write", "gvk",
                                                      gvk, "object", KeyOf(pending), "written", pending.written.text,
                                                      "observed", informer->ObservedVersion(), "timeout",
                                                      options_.read_your_writes_timeout);
            break;
        }
        entry.written.Forget(pending.namespace_name, pending.name, pending.written);
    }
    const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - started;
    write_waits_->wait_seconds.WithLabelValues({gvk}).Observe(waited.count());
    co_return OkStatus();
}

}  // namespace ctrl::cache
