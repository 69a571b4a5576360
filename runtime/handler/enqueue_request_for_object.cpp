#include "ctrl/handler/enqueue_request_for_object.hpp"

#include <string_view>

#include "ctrl/log/log.hpp"
#include "ctrl/reconcile/request.hpp"

namespace ctrl::handler {
namespace {

reconcile::Request RequestFor(const Object& object) {
    return reconcile::Request(std::string(object.Namespace()), std::string(object.Name()));
}

class EnqueueObject final : public EventHandler {
  public:
    void Create(const Context& /*ctx*/, const event::CreateEvent& event, RequestQueue& queue) override {
        Enqueue(event.object.get(), "CreateEvent", queue);
    }
    void Update(const Context& /*ctx*/, const event::UpdateEvent& event, RequestQueue& queue) override {
        if (event.object_new == nullptr && event.object_old == nullptr) {
            NoObject("UpdateEvent");
            return;
        }
        if (event.object_new != nullptr)
            queue.Add(RequestFor(*event.object_new));
        if (event.object_old != nullptr &&
            (event.object_new == nullptr || event.object_old->Name() != event.object_new->Name() ||
             event.object_old->Namespace() != event.object_new->Namespace()))
            queue.Add(RequestFor(*event.object_old));
    }
    void Delete(const Context& /*ctx*/, const event::DeleteEvent& event, RequestQueue& queue) override {
        Enqueue(event.object.get(), "DeleteEvent", queue);
    }
    void Generic(const Context& /*ctx*/, const event::GenericEvent& event, RequestQueue& queue) override {
        Enqueue(event.object.get(), "GenericEvent", queue);
    }

  private:
    static void Enqueue(const Object* object, std::string_view event_type, RequestQueue& queue) {
        if (object == nullptr) {
            NoObject(event_type);
            return;
        }
        queue.Add(RequestFor(*object));
    }
    static void NoObject(std::string_view event_type) {
        static const log::Logger logger = log::Logger().WithName("eventhandler").WithName("EnqueueRequestForObject");
        logger.Error(InternalError("event without an object"), "event received with no object; dropped", "event",
                     event_type);
    }
};

}  // namespace

std::shared_ptr<EventHandler> EnqueueRequestForObject() {
    return std::make_shared<EnqueueObject>();
}

}  // namespace ctrl::handler
