#include "ctrl/builder/builder.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "ctrl/handler/enqueue_request_for_object.hpp"
#include "ctrl/handler/enqueue_request_for_owner.hpp"
#include "ctrl/source/kind.hpp"

namespace ctrl::builder {

Builder& Builder::For(GroupVersionKind gvk, ForOptions options) {
    if (for_) {
        Fail(BadRequestError("For() must only be called once; it was called for " + for_->gvk.String() + " and " +
                             gvk.String()));
        return *this;
    }
    Watch watch;
    watch.role = Role::kFor;
    watch.gvk = std::move(gvk);
    watch.predicates = std::move(options.predicates);
    watch.only_metadata = options.only_metadata;
    for_ = std::move(watch);
    return *this;
}

Builder& Builder::Owns(GroupVersionKind gvk, OwnsOptions options) {
    Watch watch;
    watch.role = Role::kOwns;
    watch.gvk = std::move(gvk);
    watch.predicates = std::move(options.predicates);
    watch.only_metadata = options.only_metadata;
    watch.match_every_owner = options.match_every_owner;
    watches_.push_back(std::move(watch));
    return *this;
}

Builder& Builder::Watches(GroupVersionKind gvk, std::shared_ptr<handler::EventHandler> handler,
                          WatchesOptions options) {
    if (!handler) {
        Fail(BadRequestError("Watches(" + gvk.String() + ") needs a handler"));
        return *this;
    }
    Watch watch;
    watch.role = Role::kWatches;
    watch.gvk = std::move(gvk);
    watch.handler = std::move(handler);
    watch.predicates = std::move(options.predicates);
    watch.only_metadata = options.only_metadata;
    watches_.push_back(std::move(watch));
    return *this;
}

Builder& Builder::WatchesRawSource(std::shared_ptr<source::Source> source) {
    if (!source) {
        Fail(BadRequestError("WatchesRawSource needs a source"));
        return *this;
    }
    raw_sources_.push_back(std::move(source));
    return *this;
}

Builder& Builder::WithEventFilter(predicate::PredicatePtr predicate) {
    if (predicate)
        global_predicates_.push_back(std::move(predicate));
    return *this;
}

Builder& Builder::WithOptions(controller::Options options) {
    options_ = std::move(options);
    return *this;
}

Builder& Builder::Named(std::string name) {
    name_ = std::move(name);
    return *this;
}

Builder& Builder::ShardedBy(shardedcontroller::Options options) {
    sharded_ = std::move(options);
    return *this;
}

std::string Builder::Name() const {
    if (!name_.empty() || !for_)
        return name_;
    std::string name = for_->gvk.kind;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name;
}

controller::Options Builder::MergedOptions() const {
    const controller::Options defaults = host_.ControllerDefaults();
    controller::Options options = options_.value_or(defaults);
    if (options_) {
        // Fields the caller left unset take the host's defaults.
        const controller::Options unset;
        if (options.cache_sync_timeout == unset.cache_sync_timeout)
            options.cache_sync_timeout = defaults.cache_sync_timeout;
        if (options.reconcile_timeout == unset.reconcile_timeout)
            options.reconcile_timeout = defaults.reconcile_timeout;
        if (!options.needs_leader_election)
            options.needs_leader_election = defaults.needs_leader_election;
        if (!options.recover_panic)
            options.recover_panic = defaults.recover_panic;
        if (!options.enable_warmup)
            options.enable_warmup = defaults.enable_warmup;
        if (!options.rate_limiter)
            options.rate_limiter = defaults.rate_limiter;
        options.skip_name_validation = options.skip_name_validation || defaults.skip_name_validation;
        if (!options.logger)
            options.logger = defaults.logger;
        if (!options.registry)
            options.registry = defaults.registry;
    }
    if (!options.registry)
        options.registry = &host_.GetMetricsRegistry();
    if (!options.logger)
        options.logger = host_.GetLogger().WithName("controller");
    if (for_ && !options.for_kind)
        options.for_kind = for_->gvk;
    return options;
}

StatusOr<std::shared_ptr<source::Source>> Builder::SourceFor(
    const Watch& watch, const std::shared_ptr<shardedcontroller::Sharded>& sharded) const {
    std::shared_ptr<handler::EventHandler> handler = watch.handler;
    if (watch.role == Role::kFor) {
        handler = handler::EnqueueRequestForObject();
        if (sharded)
            handler = sharded->WrapPrimaryHandler(std::move(handler));
    } else if (watch.role == Role::kOwns) {
        handler = handler::EnqueueRequestForOwner(host_.GetScheme(), host_.GetRESTMapper(), for_->gvk,
                                                  /*only_controller=*/!watch.match_every_owner);
    }
    std::vector<predicate::PredicatePtr> predicates = global_predicates_;
    predicates.insert(predicates.end(), watch.predicates.begin(), watch.predicates.end());
    source::KindOptions kind_options;
    kind_options.metadata_only = watch.only_metadata;
    return source::Kind(host_.GetCache(), watch.gvk, std::move(handler), std::move(predicates),
                        std::move(kind_options));
}

StatusOr<std::shared_ptr<controller::Controller>> Builder::Build(std::shared_ptr<reconcile::Reconciler> reconciler) {
    if (!error_.Ok())
        return error_;
    if (!reconciler)
        return BadRequestError("the controller needs a reconciler");
    const bool owns_any =
        std::any_of(watches_.begin(), watches_.end(), [](const Watch& watch) { return watch.role == Role::kOwns; });
    if (owns_any && !for_)
        return BadRequestError("Owns() can only be used together with For()");
    if (!for_ && watches_.empty() && raw_sources_.empty())
        return BadRequestError(
            "there are no watches configured, the controller would never be triggered: use For(), Owns(), Watches() "
            "or WatchesRawSource()");
    const std::string name = Name();
    if (name.empty())
        return BadRequestError("a controller without For() must be given a name with Named()");

    controller::Options options = MergedOptions();
    CTRL_ASSIGN_OR_RETURN(std::shared_ptr<shardedcontroller::Sharded> sharded, MakeSharded(reconciler, options));
    CTRL_ASSIGN_OR_RETURN(std::shared_ptr<controller::Controller> made,
                          controller::Controller::New(name, std::move(reconciler), host_.GetExecutor(), options));
    std::vector<const Watch*> all;
    if (for_)
        all.push_back(&*for_);
    for (const Watch& watch : watches_)
        all.push_back(&watch);
    for (const Watch* watch : all) {
        CTRL_ASSIGN_OR_RETURN(std::shared_ptr<source::Source> source, SourceFor(*watch, sharded));
        CTRL_RETURN_IF_ERROR(made->Watch(std::move(source)));
    }
    for (const std::shared_ptr<source::Source>& source : raw_sources_)
        CTRL_RETURN_IF_ERROR(made->Watch(source));
    if (sharded) {
        CTRL_RETURN_IF_ERROR(made->Watch(sharded->RingSource()));
        made_sharded_ = sharded;
    }
    CTRL_RETURN_IF_ERROR(host_.Add(made));
    return made;
}

StatusOr<std::shared_ptr<shardedcontroller::Sharded>> Builder::MakeSharded(
    std::shared_ptr<reconcile::Reconciler>& reconciler, controller::Options& options) {
    if (!sharded_)
        return std::shared_ptr<shardedcontroller::Sharded>();
    if (!for_)
        return BadRequestError(
            "ShardedBy() needs For(): a ring shares the objects of the kind the controller reconciles");
    if (options_ && options_->needs_leader_election.value_or(false))
        return BadRequestError("controller " + Name() +
                               ": a sharded controller runs on every replica; it cannot also need leader election");
    options.needs_leader_election = false;
    CTRL_ASSIGN_OR_RETURN(std::shared_ptr<shardedcontroller::Sharded> sharded,
                          shardedcontroller::Sharded::New(*sharded_, host_.GetCache(), for_->gvk, for_->only_metadata),
                          "controller " + Name());
    reconciler = sharded->WrapReconciler(std::move(reconciler));
    return sharded;
}

}  // namespace ctrl::builder
