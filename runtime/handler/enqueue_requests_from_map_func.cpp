#include "ctrl/handler/enqueue_requests_from_map_func.hpp"

#include <exception>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "ctrl/log/log.hpp"

namespace ctrl::handler {
namespace {

const log::Logger& MapLog() {
    static const log::Logger logger = log::Logger().WithName("eventhandler").WithName("EnqueueRequestsFromMapFunc");
    return logger;
}

// What the current exception says: its what(), or that it is not a std::exception.
std::string CurrentExceptionText() {
    try {
        throw;
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
        return "an exception that is not a std::exception";
    }
}

void LogMapException(const Object& object) {
    MapLog().Error(InternalError("map function threw: " + CurrentExceptionText()), "event dropped", "namespace",
                   object.Namespace(), "name", object.Name());
}

// The requests of one event, each once, in the order they were first mapped.
class RequestSet {
  public:
    void Add(std::vector<reconcile::Request> requests) {
        for (reconcile::Request& request : requests) {
            if (seen_.insert(request).second)
                ordered_.push_back(std::move(request));
        }
    }
    void EnqueueInto(RequestQueue& queue) const {
        for (const reconcile::Request& request : ordered_)
            queue.Add(request);
    }

  private:
    std::set<reconcile::Request> seen_;
    std::vector<reconcile::Request> ordered_;
};

class EnqueueMapped final : public EventHandler {
  public:
    explicit EnqueueMapped(MapFunc fn) : fn_(std::move(fn)) {}

    void Create(const Context& ctx, const event::CreateEvent& event, RequestQueue& queue) override {
        MapAndEnqueue(ctx, {event.object.get()}, queue);
    }
    void Update(const Context& ctx, const event::UpdateEvent& event, RequestQueue& queue) override {
        MapAndEnqueue(ctx, {event.object_old.get(), event.object_new.get()}, queue);
    }
    void Delete(const Context& ctx, const event::DeleteEvent& event, RequestQueue& queue) override {
        MapAndEnqueue(ctx, {event.object.get()}, queue);
    }
    void Generic(const Context& ctx, const event::GenericEvent& event, RequestQueue& queue) override {
        MapAndEnqueue(ctx, {event.object.get()}, queue);
    }

  private:
    void MapAndEnqueue(const Context& ctx, std::initializer_list<const Object*> objects, RequestQueue& queue) const {
        RequestSet requests;
        for (const Object* object : objects) {
            if (object == nullptr)
                continue;
            try {
                requests.Add(fn_(ctx, *object));
            } catch (...) {
                LogMapException(*object);
                return;
            }
        }
        requests.EnqueueInto(queue);
    }

    const MapFunc fn_;
};

// Closed when the controller's context is cancelled; enqueues happen under its lock while open,
// so a cancellation waits for an enqueue in progress and none starts after it.
struct EnqueueGate {
    std::mutex mutex;
    bool closed = false;
};

Task<void> MapAndEnqueueAsync(Context ctx, std::shared_ptr<const AsyncMapFunc> fn,
                              std::vector<std::shared_ptr<const Object>> objects, RequestQueue* queue) {
    const std::shared_ptr<EnqueueGate> gate = std::make_shared<EnqueueGate>();
    const Context::CallbackId callback = ctx.OnCancel([gate](const Status& /*reason*/) {
        const std::lock_guard<std::mutex> lock(gate->mutex);
        gate->closed = true;
    });
    RequestSet requests;
    bool failed = false;
    for (const std::shared_ptr<const Object>& object : objects) {
        try {
            std::vector<reconcile::Request> mapped = co_await (*fn)(ctx, object);
            requests.Add(std::move(mapped));
        } catch (...) {
            LogMapException(*object);
            failed = true;
        }
        if (failed)
            break;
    }
    if (!failed) {
        const std::lock_guard<std::mutex> lock(gate->mutex);
        if (!gate->closed)
            requests.EnqueueInto(*queue);
    }
    ctx.RemoveCallback(callback);
}

class EnqueueMappedAsync final : public EventHandler {
  public:
    EnqueueMappedAsync(boost::asio::any_io_executor executor, AsyncMapFunc fn)
        : executor_(std::move(executor)), fn_(std::make_shared<const AsyncMapFunc>(std::move(fn))) {}

    void Create(const Context& ctx, const event::CreateEvent& event, RequestQueue& queue) override {
        Spawn(ctx, {event.object}, queue);
    }
    void Update(const Context& ctx, const event::UpdateEvent& event, RequestQueue& queue) override {
        Spawn(ctx, {event.object_old, event.object_new}, queue);
    }
    void Delete(const Context& ctx, const event::DeleteEvent& event, RequestQueue& queue) override {
        Spawn(ctx, {event.object}, queue);
    }
    void Generic(const Context& ctx, const event::GenericEvent& event, RequestQueue& queue) override {
        Spawn(ctx, {event.object}, queue);
    }

  private:
    void Spawn(const Context& ctx, std::initializer_list<std::shared_ptr<const Object>> event_objects,
               RequestQueue& queue) {
        std::vector<std::shared_ptr<const Object>> objects;
        for (const std::shared_ptr<const Object>& object : event_objects) {
            if (object != nullptr)
                objects.push_back(object);
        }
        if (objects.empty() || *fn_ == nullptr || ctx.Cancelled())
            return;
        boost::asio::co_spawn(executor_, MapAndEnqueueAsync(ctx, fn_, std::move(objects), &queue),
                              boost::asio::detached);
    }

    const boost::asio::any_io_executor executor_;
    const std::shared_ptr<const AsyncMapFunc> fn_;
};

}  // namespace

std::shared_ptr<EventHandler> EnqueueRequestsFromMapFunc(MapFunc fn) {
    return std::make_shared<EnqueueMapped>(std::move(fn));
}

std::shared_ptr<EventHandler> EnqueueRequestsFromAsyncMapFunc(boost::asio::any_io_executor executor, AsyncMapFunc fn) {
    return std::make_shared<EnqueueMappedAsync>(std::move(executor), std::move(fn));
}

}  // namespace ctrl::handler
