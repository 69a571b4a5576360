#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/cache/event_handler.hpp"
#include "ctrl/cache/index_func.hpp"
#include "ctrl/cache/list_watch_target.hpp"
#include "ctrl/cache/reflector.hpp"
#include "ctrl/cache/store.hpp"
#include "ctrl/cache/written_version.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::cache {

namespace internal {
class Processor;
}  // namespace internal

// One kind's cache (a shared informer): a Store kept equal to the server by a Reflector, with
// event handlers and indexes. The informer owns its handlers and their dispatch
// (internal::Processor): the reflector changes the store and the processor hands each change to
// every handler. Made and run by the Cache. Run is one Task on the caller's executor (the
// reflector, and the resync timer when the reflector options ask for one) until its context ends;
// it holds the Informer (made with std::make_shared), so dropping the last outside reference while
// it runs is safe. Run also returns on its own when the server stops serving the kind (its CRD
// deleted: StopReason), and when Stop is called; either way the store is emptied then (its
// memory freed, its gauges 0, no events: the informer is gone, not its objects). Thread-safe.
class Informer final : public std::enable_shared_from_this<Informer> {
  public:
    // Handler exceptions and refused objects are counted in registry (see Reflector).
    Informer(GroupVersionKind gvk, std::shared_ptr<rest::RestClient> client, ListWatchTarget target,
             StoreOptions store_options, ReflectorOptions reflector_options,
             metrics::Registry& registry = metrics::DefaultRegistry());
    ~Informer();
    Informer(const Informer&) = delete;
    Informer& operator=(const Informer&) = delete;

    // Lists, watches and dispatches until ctx ends, then returns OK once the reflector and the
    // resync timer have stopped; Internal if the reflector failed (a bug: it retries every
    // failure of the server). When the server stops serving the kind, returns its NotFound
    // (StopReason); after Stop, OK. A second call returns AlreadyExists at once.
    Task<Status> Run(Context ctx);
    bool Started() const { return started_.load(); }
    // Whether Run has returned.
    bool Stopped() const { return stopped_.HasBeenNotified(); }
    // Ends Run (now, or as soon as it starts) and empties the store: the informer is removed
    // (Cache::RemoveInformer). Handlers get no more events and no deletes.
    void Stop();
    // Why the informer stopped on its own or was stopped: NotFound when the server stopped
    // serving the kind, Cancelled after Stop; OK while it runs or once its context ended.
    Status StopReason() const;
    // Cancels ctx, with StopReason, once Run has returned (at once when it has): how a source
    // learns that its informer is gone.
    void CancelOnStop(Context ctx);

    bool HasSynced() const { return reflector_.HasSynced(); }
    // Waits until synced; when ctx ends first, an error naming the kind, the resource and the last
    // failure ("/v1, Kind=Pod (pods.v1) did not sync: Forbidden: ...").
    Task<Status> WaitForSync(Context ctx) const;
    Status LastError() const { return reflector_.LastError(); }

    // Adds a handler (see EventHandler). Once the first list is in, it first receives what the
    // store holds as adds (is_initial_list true), then every later change, with no change missed or
    // repeated. Added after the first list, its replay is delivered on Run's executor, not on the
    // calling thread. The registration says when it has synced, and removes it.
    EventHandlerRegistration AddEventHandler(std::shared_ptr<EventHandler> handler);
    // Stops a handler's calls (one under way on another thread finishes). NotFound when it is not
    // a handler of this informer (or was removed already).
    Status RemoveEventHandler(const EventHandlerRegistration& registration);
    Status AddIndex(std::string name, IndexFunc fn) { return store_.AddIndex(std::move(name), std::move(fn)); }

    // Read-your-own-writes: the highest resourceVersion the store has applied, whether it reflects
    // a write, and a wait until it does (Reflector::ObservedVersion, Reflects, WaitUntilReflects).
    uint64_t ObservedVersion() const { return reflector_.ObservedVersion(); }
    bool Reflects(const WrittenVersion& written, std::string_view namespace_name, std::string_view name) const {
        return reflector_.Reflects(written, namespace_name, name);
    }
    Task<Status> WaitUntilReflects(Context ctx, WrittenVersion written, std::string namespace_name,
                                   std::string name) const {
        return reflector_.WaitUntilReflects(std::move(ctx), std::move(written), std::move(namespace_name),
                                            std::move(name));
    }

    const GroupVersionKind& Kind() const { return gvk_; }
    const ListWatchTarget& Target() const { return reflector_.Target(); }
    const Store& GetStore() const { return store_; }
    ReflectorStats Stats() const { return reflector_.Stats(); }

  private:
    // Once synced, every resync_period_ until ctx ends: OnUpdate(object, object) to every handler
    // for every object held.
    static Task<void> ResyncLoop(Context ctx, std::shared_ptr<Informer> self);
    // The end of Run: empties the store when the informer was removed or its kind is not served,
    // then wakes Stopped's listeners; what Run returns.
    Status Finish(Status ended);
    // What a CancelOnStop context is cancelled with: StopReason, or Cancelled when Run returned
    // because its own context ended.
    Status StopListenersReason() const;

    const GroupVersionKind gvk_;
    const std::shared_ptr<rest::RestClient> client_;
    Store store_;
    const std::unique_ptr<internal::Processor> processor_;
    Reflector reflector_;
    std::atomic<bool> started_{false};
    Notification stopped_;

    mutable std::mutex stop_mu_;
    std::optional<Context> run_ctx_;  // Run's, while it runs
    bool stop_requested_ = false;
    bool finished_ = false;  // Finish took the listeners
    std::vector<Context> stop_listeners_;
    const std::chrono::milliseconds resync_period_;
};

}  // namespace ctrl::cache
