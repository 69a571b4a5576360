#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ctrl/controller/controller.hpp"
#include "ctrl/controller/controller_options.hpp"
#include "ctrl/controller/host.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/handler/handler.hpp"
#include "ctrl/predicate/predicate.hpp"
#include "ctrl/reconcile/reconciler.hpp"
#include "ctrl/scheme/typed_object.hpp"
#include "ctrl/shardedcontroller/sharded.hpp"
#include "ctrl/source/source.hpp"

namespace ctrl::builder {

// How For watches the reconciled kind (controller-runtime's ForOption).
struct ForOptions {
    // Events of the kind pass these (and WithEventFilter's) before they enqueue.
    std::vector<predicate::PredicatePtr> predicates{};
    // Watch metadata only (a metadata-only informer: less memory, no spec or status).
    bool only_metadata = false;
};

// How Owns watches an owned kind (controller-runtime's OwnsOption).
struct OwnsOptions {
    std::vector<predicate::PredicatePtr> predicates{};
    bool only_metadata = false;
    // Enqueue every owner of the For kind, not only the controller owner (MatchEveryOwner).
    bool match_every_owner = false;
};

// How Watches watches a kind (controller-runtime's WatchesOption).
struct WatchesOptions {
    std::vector<predicate::PredicatePtr> predicates{};
    bool only_metadata = false;
};

// Wires a controller (controller-runtime's builder): the kind it reconciles (For, enqueuing the
// object's own key), the kinds it owns (Owns, enqueuing the controller owner), other sources
// (Watches), event filters for all of them, options and a name, then Complete hands the
// controller to the host. Methods chain; the first mistake is kept and returned by Build or
// Complete. Not a coroutine and not thread-safe: build on one thread, then let the host run.
//
//   builder::ControllerManagedBy(*mgr)
//       .For<api::Pod>()
//       .Owns<api::ConfigMap>()
//       .WithEventFilter(predicate::GenerationChanged())
//       .Complete(std::make_shared<MyReconciler>());
class Builder {
  public:
    explicit Builder(controller::Host& host) : host_(host) {}

    template <scheme::TypedObject T>
    Builder& For(ForOptions options = {}) {
        return For(scheme::GroupVersionKindOf<T>(), std::move(options));
    }
    // The reconciled kind as a GroupVersionKind (unstructured or metadata-only controllers).
    Builder& For(GroupVersionKind gvk, ForOptions options = {});

    template <scheme::TypedObject T>
    Builder& Owns(OwnsOptions options = {}) {
        return Owns(scheme::GroupVersionKindOf<T>(), std::move(options));
    }
    Builder& Owns(GroupVersionKind gvk, OwnsOptions options = {});

    // Watches objects of T with a handler of the caller's (EnqueueRequestsFromMapFunc, ...).
    template <scheme::TypedObject T>
    Builder& Watches(std::shared_ptr<handler::EventHandler> handler, WatchesOptions options = {}) {
        return Watches(scheme::GroupVersionKindOf<T>(), std::move(handler), std::move(options));
    }
    Builder& Watches(GroupVersionKind gvk, std::shared_ptr<handler::EventHandler> handler, WatchesOptions options = {});
    // A source built by the caller (a Channel, a Func, a Kind with its own options). Event
    // filters of WithEventFilter do not apply to it, as in controller-runtime.
    Builder& WatchesRawSource(std::shared_ptr<source::Source> source);

    // A predicate every For, Owns and Watches event must pass.
    Builder& WithEventFilter(predicate::PredicatePtr predicate);
    // The controller's options; fields left at their default take the host's defaults.
    Builder& WithOptions(controller::Options options);
    // The controller's name (metrics label, log key). Default: the For kind in lower case.
    Builder& Named(std::string name);
    // Shards the controller over the replicas that run it with the same ring (instead of leader
    // election): each reconciles the For objects of the buckets the ring gives it, its cache holds
    // only those (the API server filters them when its ShardedListAndWatch gate is on, the cache
    // otherwise), and a bucket changes hands only after its reconciles here ended. Needs For();
    // the controller then does not need leader election (asking for it is an error).
    Builder& ShardedBy(shardedcontroller::Options options);
    // After Build with ShardedBy: the controller's membership of its ring (what it owns, who the
    // members are); null otherwise.
    std::shared_ptr<const shardedcontroller::Sharded> GetSharded() const { return made_sharded_; }

    // Makes the controller, its sources, and hands it to the host.
    StatusOr<std::shared_ptr<controller::Controller>> Build(std::shared_ptr<reconcile::Reconciler> reconciler);
    Status Complete(std::shared_ptr<reconcile::Reconciler> reconciler) {
        return Build(std::move(reconciler)).GetStatus();
    }

  private:
    enum class Role { kFor, kOwns, kWatches };
    struct Watch {
        Role role = Role::kWatches;
        GroupVersionKind gvk;
        std::shared_ptr<handler::EventHandler> handler;
        std::vector<predicate::PredicatePtr> predicates;
        bool only_metadata = false;
        bool match_every_owner = false;
    };
    void Fail(Status status) {
        if (error_.Ok())
            error_ = std::move(status);
    }
    std::string Name() const;
    controller::Options MergedOptions() const;
    StatusOr<std::shared_ptr<source::Source>> SourceFor(
        const Watch& watch, const std::shared_ptr<shardedcontroller::Sharded>& sharded) const;
    // The sharding ShardedBy asked for (null without), its reconciler wrapped.
    StatusOr<std::shared_ptr<shardedcontroller::Sharded>> MakeSharded(
        std::shared_ptr<reconcile::Reconciler>& reconciler, controller::Options& options);

    controller::Host& host_;
    std::optional<Watch> for_;
    std::vector<Watch> watches_;  // Owns and Watches, in call order
    std::vector<std::shared_ptr<source::Source>> raw_sources_;
    std::vector<predicate::PredicatePtr> global_predicates_;
    std::optional<controller::Options> options_;
    std::string name_;
    std::optional<shardedcontroller::Options> sharded_;
    std::shared_ptr<const shardedcontroller::Sharded> made_sharded_;
    Status error_;
};

// A Builder for a controller run by host (controller-runtime's builder.ControllerManagedBy).
inline Builder ControllerManagedBy(controller::Host& host) {
    return Builder(host);
}

// A Builder reconciling T: ControllerManagedBy(host).For<T>(options).
template <scheme::TypedObject T>
Builder ControllerFor(controller::Host& host, ForOptions options = {}) {
    Builder builder(host);
    builder.For<T>(std::move(options));
    return builder;
}

}  // namespace ctrl::builder
