#include "ctrl/handler/enqueue_request_for_owner.hpp"

#include <atomic>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/log/log.hpp"
#include "ctrl/reconcile/request.hpp"

namespace ctrl::handler {
namespace {

const log::Logger& OwnerLog() {
    static const log::Logger logger = log::Logger().WithName("eventhandler").WithName("EnqueueRequestForOwner");
    return logger;
}

// The reference metav1.GetControllerOf returns: the first one marked controller: true.
std::optional<OwnerReference> ControllerOf(const Object& object) {
    for (OwnerReference& ref : object.OwnerReferences()) {
        if (ref.controller.value_or(false))
            return std::move(ref);
    }
    return std::nullopt;
}

class EnqueueOwner final : public EventHandler {
  public:
    EnqueueOwner(StatusOr<GroupVersionKind> owner_kind, discovery::RESTMapper& mapper, bool only_controller)
        : owner_kind_(std::move(owner_kind)), mapper_(mapper), only_controller_(only_controller) {
        if (!owner_kind_.Ok())
            OwnerLog().Error(owner_kind_.GetStatus(), "cannot resolve the owner kind");
    }

    Task<Status> Prepare(Context ctx) override {
        if (!owner_kind_.Ok())
            co_return owner_kind_.GetStatus().Annotate("EnqueueRequestForOwner");
        const GroupKind group_kind = owner_kind_->ToGroupKind();
        // Every version: a kind's scope does not depend on the version asked for.
        std::vector<std::string> versions;
        StatusOr<discovery::RESTMapping> mapping = co_await mapper_.RESTMapping(ctx, group_kind, versions);
        if (!mapping.Ok()) {
            co_return mapping.GetStatus().Annotate("EnqueueRequestForOwner: looking up the scope of owner kind " +
                                                   owner_kind_->String());
        }
        scope_.store(mapping->Namespaced() ? kNamespaced : kClusterScoped, std::memory_order_release);
        co_return Status();
    }

    void Create(const Context& /*ctx*/, const event::CreateEvent& event, RequestQueue& queue) override {
        Enqueue({event.object.get()}, queue);
    }
    void Update(const Context& /*ctx*/, const event::UpdateEvent& event, RequestQueue& queue) override {
        Enqueue({event.object_old.get(), event.object_new.get()}, queue);
    }
    void Delete(const Context& /*ctx*/, const event::DeleteEvent& event, RequestQueue& queue) override {
        Enqueue({event.object.get()}, queue);
    }
    void Generic(const Context& /*ctx*/, const event::GenericEvent& event, RequestQueue& queue) override {
        Enqueue({event.object.get()}, queue);
    }

  private:
    enum Scope : int { kUnknown, kNamespaced, kClusterScoped };

    // The owner kind's scope: what Prepare found, else the mapper's cached mapping.
    Scope CurrentScope() {
        Scope scope = static_cast<Scope>(scope_.load(std::memory_order_acquire));
        if (scope != kUnknown || !owner_kind_.Ok())
            return scope;
        if (std::optional<discovery::RESTMapping> mapping = mapper_.CachedMapping(*owner_kind_)) {
            scope = mapping->Namespaced() ? kNamespaced : kClusterScoped;
            scope_.store(scope, std::memory_order_release);
        }
        return scope;
    }

    void Enqueue(std::initializer_list<const Object*> objects, RequestQueue& queue) {
        const Scope scope = CurrentScope();
        if (scope == kUnknown) {
            if (owner_kind_.Ok())
                OwnerLog().Error(NotFoundError("the scope of owner kind " + owner_kind_->String() + " is unknown"),
                                 "event dropped: the handler was not prepared");
            return;
        }
        std::set<reconcile::Request> requests;
        for (const Object* object : objects) {
            if (object != nullptr)
                AddOwners(*object, scope, requests);
        }
        for (const reconcile::Request& request : requests)
            queue.Add(request);
    }

    void AddOwners(const Object& object, Scope scope, std::set<reconcile::Request>& requests) const {
        std::vector<OwnerReference> refs;
        if (!only_controller_) {
            refs = object.OwnerReferences();
        } else if (std::optional<OwnerReference> controller = ControllerOf(object)) {
            refs.push_back(std::move(*controller));
        }
        for (const OwnerReference& ref : refs) {
            if (ref.kind != owner_kind_->kind)
                continue;
            StatusOr<GroupVersion> group_version = GroupVersion::Parse(ref.api_version);
            if (!group_version.Ok()) {
                OwnerLog().Error(group_version.GetStatus(), "cannot parse an owner reference's apiVersion",
                                 "apiVersion", ref.api_version, "namespace", object.Namespace(), "name", object.Name());
                continue;
            }
            if (group_version->group != owner_kind_->group)
                continue;
            requests.emplace(scope == kNamespaced ? std::string(object.Namespace()) : std::string(), ref.name);
        }
    }

    const StatusOr<GroupVersionKind> owner_kind_;
    discovery::RESTMapper& mapper_;
    const bool only_controller_;
    std::atomic<int> scope_{kUnknown};
};

}  // namespace

std::shared_ptr<EventHandler> EnqueueRequestForOwner(const scheme::Scheme& /*scheme*/, discovery::RESTMapper& mapper,
                                                     GroupVersionKind owner_kind, bool only_controller) {
    return internal::EnqueueRequestForOwnerKind(std::move(owner_kind), mapper, only_controller);
}

namespace internal {

std::shared_ptr<EventHandler> EnqueueRequestForOwnerKind(StatusOr<GroupVersionKind> owner_kind,
                                                         discovery::RESTMapper& mapper, bool only_controller) {
    return std::make_shared<EnqueueOwner>(std::move(owner_kind), mapper, only_controller);
}

}  // namespace internal
}  // namespace ctrl::handler
