#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include <boost/asio/any_io_executor.hpp>

#include "runtime/cache/event_handler.hpp"
#include "runtime/cache/index_func.hpp"
#include "runtime/cache/list_watch_target.hpp"
#include "runtime/cache/reflector.hpp"
#include "runtime/cache/store.hpp"
#include "runtime/core/context.hpp"
#include "runtime/core/gvk.hpp"
#include "runtime/core/status.hpp"
#include "runtime/core/task.hpp"

namespace ctrl::cache {

// One kind's cache (a shared informer): a Store kept equal to the server by a Reflector, with
// event handlers and indexes. Made and started by the Cache; Start runs the reflector as one
// coroutine on the given executor until the context ends. The running coroutines hold the
// Informer (and it the RestClient), so dropping the last outside reference while they run is
// safe: it goes when they end. Thread-safe.
class Informer final : public std::enable_shared_from_this<Informer> {
  public:
    Informer(GroupVersionKind gvk, std::shared_ptr<rest::RestClient> client, ListWatchTarget target,
             StoreOptions store_options, ReflectorOptions reflector_options);
    Informer(const Informer&) = delete;
    Informer& operator=(const Informer&) = delete;

    // Starts the reflector on executor (and the resync timer, when the reflector options ask for
    // one); they stop when ctx ends. A second call does nothing.
    void Start(boost::asio::any_io_executor executor, Context ctx);
    bool Started() const { return started_.load(); }
    // Whether what Start began has returned (after ctx ended).
    bool Stopped() const { return running_->load() == 0; }

    bool HasSynced() const { return reflector_.HasSynced(); }
    // Waits until synced; when ctx ends first, an error naming the kind, the resource and the last
    // failure ("/v1, Kind=Pod (pods.v1) did not sync: Forbidden: ...").
    Task<Status> WaitForSync(Context ctx) const;
    Status LastError() const { return reflector_.LastError(); }

    void AddEventHandler(std::shared_ptr<EventHandler> handler) { reflector_.AddEventHandler(std::move(handler)); }
    Status AddIndex(std::string name, IndexFunc fn) { return store_.AddIndex(std::move(name), std::move(fn)); }

    const GroupVersionKind& Kind() const { return gvk_; }
    const ListWatchTarget& Target() const { return reflector_.Target(); }
    const Store& GetStore() const { return store_; }
    ReflectorStats Stats() const { return reflector_.Stats(); }

  private:
    // Run the reflector, and Resync every resync_period_, until ctx ends; self keeps the Informer.
    static Task<void> RunReflector(std::shared_ptr<Informer> self, Context ctx);
    static Task<void> ResyncLoop(std::shared_ptr<Informer> self, Context ctx);

    const GroupVersionKind gvk_;
    const std::shared_ptr<rest::RestClient> client_;
    Store store_;
    Reflector reflector_;
    std::atomic<bool> started_{false};
    const std::chrono::milliseconds resync_period_;
    std::shared_ptr<std::atomic<int>> running_ = std::make_shared<std::atomic<int>>(0);
};

}  // namespace ctrl::cache
