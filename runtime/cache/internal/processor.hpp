#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/cache/event_handler.hpp"
#include "ctrl/cache/internal/informer_faults.hpp"
#include "ctrl/cache/internal/queued_object.hpp"
#include "ctrl/cache/store.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::cache::internal {

class Listener;

// An informer's event handlers and their dispatch (client-go's sharedProcessor): each handler is
// fed through its own Listener (its own queue, in order, exceptions caught and counted). The
// reflector changes the store inside a Batch, which holds the processor's lock: each change is
// queued to every listener under it and delivered when the Batch ends, after the lock is released,
// so a handler may call back into its informer and cache. A handler added after the first list
// first gets what the store holds (queued under the same lock), so it misses and repeats no change.
// Handlers are called on the thread that ends a Batch (the reflector's, on the informer's
// executor); a late handler's replay is posted to the executor given to SetExecutor. What is
// queued refers to the store's states and is decoded one notification at a time as it is
// delivered (a relist of 100,000 objects never holds 100,000 decoded objects). Thread-safe.
class Processor final {
  private:
    using Listeners = std::vector<std::shared_ptr<Listener>>;

  public:
    // store: the informer's, read to replay it to a late handler and to resync. what: the
    // informer's target in messages ("pods.v1 in ns"); kind: the gvk its metrics are labelled with.
    Processor(const Store& store, std::string what, const std::string& kind, metrics::Registry& registry);
    // Stops every listener (a registration still held lets go of its handler).
    ~Processor();
    Processor(const Processor&) = delete;
    Processor& operator=(const Processor&) = delete;

    // The store's changes made while it lives, queued to every handler under the processor's
    // lock; delivered when it ends, without the lock. Made by Begin; one thread uses it.
    class Batch final {
      public:
        Batch(const Batch&) = delete;
        Batch& operator=(const Batch&) = delete;
        ~Batch();

        // A list replaced the store: each object as an add (is_initial_list when initial) or an
        // update, each object gone as a delete with final_state_unknown. initial: the first list;
        // each handler then counts as synced once it has received it.
        void Replaced(const StoreReplaceResult& result, bool initial);
        // A watched object was added (no previous state) or changed.
        void Changed(const StoreChange& change);
        // An object deleted: its last known state, a stored one (decoded when delivered) or the
        // watch event's.
        void Deleted(const QueuedObject& last_known, bool final_state_unknown);
        // Whether any handler is registered (to skip making what nobody receives).
        bool HasHandlers() const { return !listeners_->empty(); }

      private:
        friend class Processor;
        explicit Batch(Processor& processor);
        // An add (no previous state) or an update, to every listener.
        void Queue(const StoreChange& change, bool is_initial_list);

        Processor& processor_;
        std::unique_lock<std::mutex> lock_;
        std::shared_ptr<const Listeners> listeners_;
    };
    Batch Begin() { return Batch(*this); }

    // Adds a handler (see Informer::AddEventHandler).
    EventHandlerRegistration AddEventHandler(std::shared_ptr<EventHandler> handler);
    // NotFound when registration is not one of this processor's handlers (or was removed already).
    Status RemoveEventHandler(const EventHandlerRegistration& registration);
    // Once the first list is in: OnUpdate(object, object) to every handler for every object held.
    void Resync();
    // Where a late handler's replay is delivered: the informer's executor.
    void SetExecutor(boost::asio::any_io_executor executor);

  private:
    static void Deliver(const Listeners& listeners);

    const Store& store_;
    const std::string what_;
    const std::shared_ptr<const InformerFaults> faults_;

    // Held while the store changes and the change is queued (a Batch), and while a handler is
    // added or removed. listeners_ is copied on write, so a delivery reads a snapshot.
    std::mutex mu_;
    std::shared_ptr<const Listeners> listeners_;
    bool listed_ = false;  // the first list is in the store
    std::optional<boost::asio::any_io_executor> executor_;
};

}  // namespace ctrl::cache::internal
