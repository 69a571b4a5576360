#pragma once

#include <memory>
#include <vector>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/core/await_safe_function.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/handler/handler.hpp"
#include "ctrl/reconcile/request.hpp"

namespace ctrl::handler {

// Maps an object to the requests it concerns (controller-runtime's MapFunc). Runs on the source's
// executor for every event and must not block: it may read the cache through its synchronous
// views (cache::Cache::GetSharedNow / ListSharedNow), not through a client. The handler may be
// built inside a co_await expression, so a temporary lambda that captures by copy does not compile
// (AwaitSafeFunction): capture by reference, or name it.
using MapFunc = AwaitSafeFunction<std::vector<reconcile::Request>(const Context&, const Object&)>;

// The handler of related objects (controller-runtime's EnqueueRequestsFromMapFunc): enqueues
// what fn returns for the object of each event; for an update, for the old and the new object,
// each request once. An event without an object enqueues nothing.
// An exception thrown by fn is caught, logged with its what() and the event dropped (nothing of
// it is enqueued): where controller-runtime's panic would be recovered by the controller, the
// handler here never lets an exception out to the source.
std::shared_ptr<EventHandler> EnqueueRequestsFromMapFunc(MapFunc fn);

// A MapFunc that needs I/O: a coroutine that may read through a Client or the cache's async
// reads. ctx is the controller's (done when it stops). Refuses what MapFunc refuses.
using AsyncMapFunc = AwaitSafeFunction<Task<std::vector<reconcile::Request>>(Context, std::shared_ptr<const Object>)>;

// EnqueueRequestsFromMapFunc for an AsyncMapFunc: each event starts one coroutine on executor
// (the event returns at once) that runs fn on the event's objects (old then new for an update)
// and enqueues the results, each once. Maps of different events run concurrently and may finish
// in any order. An exception of fn is caught and logged, and that event's requests dropped.
// Once the event's context (the one the source passes, ending when the controller stops) is
// cancelled nothing more is enqueued: the cancellation waits for an enqueue in progress, so after
// Cancel returns the queue is never touched again and the controller may destroy it. The caller
// guarantees that executor's execution context outlives the maps in progress.
std::shared_ptr<EventHandler> EnqueueRequestsFromAsyncMapFunc(boost::asio::any_io_executor executor, AsyncMapFunc fn);

}  // namespace ctrl::handler
