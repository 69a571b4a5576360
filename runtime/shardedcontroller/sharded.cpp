#include "ctrl/shardedcontroller/sharded.hpp"

#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include "ctrl/log/log.hpp"
#include "ctrl/workqueue/priority.hpp"

namespace ctrl::shardedcontroller {

namespace {

// Runs the inner reconciler only for requests in the share, counting them under way.
class ShareReconciler final : public reconcile::Reconciler {
  public:
    ShareReconciler(std::shared_ptr<Sharded> sharded, std::shared_ptr<reconcile::Reconciler> inner)
        : sharded_(std::move(sharded)), inner_(std::move(inner)) {}

    Task<StatusOr<reconcile::Result>> Reconcile(Context ctx, reconcile::Request request) override {
        Share& share = sharded_->GetShare();
        const std::optional<int> bucket = share.Enter(request);
        if (!bucket) {
            log::FromContext(ctx).V(4).Info("not in this member's share: left to its owner");
            co_return reconcile::Result{};
        }
        // Leaves the bucket however the reconcile ends (an exception is a panic the controller
        // catches above).
        struct Leave {
            Share& share;
            const reconcile::Request& request;
            int bucket;
            ~Leave() { share.Leave(request, bucket); }
        } leave{share, request, *bucket};
        co_return co_await inner_->Reconcile(ctx, request);
    }

  private:
    const std::shared_ptr<Sharded> sharded_;
    const std::shared_ptr<reconcile::Reconciler> inner_;
};

// Tells the share each primary object's bucket before the request reaches the queue.
class RememberingHandler final : public handler::EventHandler {
  public:
    RememberingHandler(std::shared_ptr<Sharded> sharded, std::shared_ptr<handler::EventHandler> inner)
        : sharded_(std::move(sharded)), inner_(std::move(inner)) {}

    Task<Status> Prepare(Context ctx) override { return inner_->Prepare(std::move(ctx)); }
    void Create(const Context& ctx, const event::CreateEvent& event, handler::RequestQueue& queue) override {
        if (event.object)
            share().Remember(*event.object);
        inner_->Create(ctx, event, queue);
    }
    void Update(const Context& ctx, const event::UpdateEvent& event, handler::RequestQueue& queue) override {
        if (event.object_new)
            share().Remember(*event.object_new);
        inner_->Update(ctx, event, queue);
    }
    void Delete(const Context& ctx, const event::DeleteEvent& event, handler::RequestQueue& queue) override {
        if (event.object)
            share().RememberDeleted(*event.object);
        inner_->Delete(ctx, event, queue);
    }
    void Generic(const Context& ctx, const event::GenericEvent& event, handler::RequestQueue& queue) override {
        if (event.object)
            share().Remember(*event.object);
        inner_->Generic(ctx, event, queue);
    }

  private:
    Share& share() { return sharded_->GetShare(); }

    const std::shared_ptr<Sharded> sharded_;
    const std::shared_ptr<handler::EventHandler> inner_;
};

// Runs the ring while the controller runs.
class RingRunner final : public source::Source {
  public:
    explicit RingRunner(std::shared_ptr<Sharded> sharded) : sharded_(std::move(sharded)) {}

    Task<Status> Start(Context ctx, handler::RequestQueue& queue) override {
        if (started_)
            co_return AlreadyExistsError(String() + " was started already");
        started_ = true;
        const boost::asio::any_io_executor executor = co_await boost::asio::this_coro::executor;
        sharded_->Attach(&queue, executor);
        boost::asio::co_spawn(executor, Run(ctx, sharded_), [stopped = stopped_](const std::exception_ptr& error) {
            if (error)
                log::Logger()
                    .WithName("shard-ring")
                    .Error(InternalError("an exception escaped"), "the shard ring stopped");
            stopped->Notify();
        });
        co_return OkStatus();
    }
    Task<void> WaitStopped() override {
        if (started_)
            (void)co_await stopped_->Wait(Context::Background());
    }
    // Ready once the ring settled: the members agreed and this one owns its share (a replica that
    // is not ready yet would leave its share's objects waiting).
    Status Ready() const override {
        if (sharded_->GetRing().Settled())
            return OkStatus();
        return UnavailableError(String() + ": waiting for the members to agree on the buckets");
    }
    std::string String() const override { return "shard ring " + sharded_->GetRing().LeaseName(); }

  private:
    static Task<void> Run(Context ctx, std::shared_ptr<Sharded> sharded) {
        const Status ended = co_await sharded->GetRing().Run(ctx);
        if (!ended.Ok())
            log::Logger().WithName("shard-ring").Error(ended, "the shard ring stopped");
    }

    const std::shared_ptr<Sharded> sharded_;
    const std::shared_ptr<Notification> stopped_ = std::make_shared<Notification>();
    bool started_ = false;
};

}  // namespace

Sharded::Sharded(cache::Informers& informers, GroupVersionKind primary, bool metadata_only, const Options& options,
                 sharding::BucketSpace space)
    : informers_(informers),
      primary_(std::move(primary)),
      metadata_only_(metadata_only),
      narrow_cache_(options.narrow_cache),
      on_released_(options.on_released),
      share_(space, options.key) {}

StatusOr<std::shared_ptr<Sharded>> Sharded::New(Options options, cache::Informers& informers, GroupVersionKind primary,
                                                bool metadata_only) {
    if (options.client == nullptr)
        return BadRequestError("sharded controller of " + primary.String() +
                               ": a client for the ring's Leases is required (shardedcontroller::Options::client)");
    if (options.ring.callbacks.on_acquired || options.ring.callbacks.on_releasing)
        return BadRequestError("sharded controller of " + primary.String() +
                               ": the ring's callbacks are the sharded controller's; leave them empty");
    CTRL_ASSIGN_OR_RETURN(sharding::BucketSpace space, sharding::BucketSpace::Make(options.ring.buckets),
                          "sharded controller of " + primary.String());
    std::shared_ptr<Sharded> sharded(new Sharded(informers, primary, metadata_only, options, space));
    // The callbacks run on the ring's coroutine, which the RingSource holds the Sharded for.
    Sharded* const self = sharded.get();
    options.ring.callbacks.on_acquired = [self](const std::vector<int>& buckets) { self->Acquired(buckets); };
    options.ring.callbacks.on_releasing = [self](const std::vector<int>& buckets) { return self->Releasing(buckets); };
    CTRL_ASSIGN_OR_RETURN(sharded->ring_, sharding::Ring::New(*options.client, std::move(options.ring)));
    if (options.narrow_cache)
        CTRL_RETURN_IF_ERROR(informers.SetShard(primary, metadata_only, sharded->share_.Filter()),
                             "sharded controller of " + primary.String());
    return sharded;
}

std::shared_ptr<reconcile::Reconciler> Sharded::WrapReconciler(std::shared_ptr<reconcile::Reconciler> reconciler) {
    return std::make_shared<ShareReconciler>(shared_from_this(), std::move(reconciler));
}

std::shared_ptr<handler::EventHandler> Sharded::WrapPrimaryHandler(std::shared_ptr<handler::EventHandler> handler) {
    return std::make_shared<RememberingHandler>(shared_from_this(), std::move(handler));
}

std::shared_ptr<source::Source> Sharded::RingSource() {
    return std::make_shared<RingRunner>(shared_from_this());
}

void Sharded::Acquired(const std::vector<int>& buckets) {
    share_.Acquire(buckets);
    if (narrow_cache_)
        SetCacheShard();  // the new informers' list brings the gained objects as creates
    else
        EnqueueCached(buckets);
}

Task<void> Sharded::Releasing(std::vector<int> buckets) {
    const std::vector<ObjectKey> forgotten = co_await share_.Release(buckets);
    if (on_released_ && !forgotten.empty())
        on_released_(forgotten);
    if (narrow_cache_)
        SetCacheShard();
}

void Sharded::EnqueueCached(const std::vector<int>& buckets) {
    handler::RequestQueue* const queue = queue_.load();
    if (queue == nullptr)
        return;
    boost::asio::co_spawn(executor_, EnqueueCachedOf(shared_from_this(), queue, buckets), boost::asio::detached);
}

Task<void> Sharded::EnqueueCachedOf(std::shared_ptr<Sharded> self, handler::RequestQueue* queue,
                                    std::vector<int> buckets) {
    const sharding::ShardFilter gained(self->share_.Space(), self->share_.Key(), buckets);
    StatusOr<std::vector<cache::Informer*>> informers =
        co_await self->informers_.GetInformers(Context::Background(), self->primary_, self->metadata_only_);
    if (!informers.Ok())
        co_return;  // not served yet: its informers' first list brings every object
    workqueue::AddOptions low;
    low.priority = workqueue::kLowPriority;
    for (const cache::Informer* informer : *informers) {
        for (const cache::CachedObject& cached : informer->GetStore().List()) {
            const std::shared_ptr<const Object> object = cached.Shared();
            if (!gained.Keeps(*object))
                continue;
            self->share_.Remember(*object);
            queue->AddWithOptions(low,
                                  reconcile::Request(std::string(object->Namespace()), std::string(object->Name())));
        }
    }
}

void Sharded::SetCacheShard() {
    const Status set = informers_.SetShard(primary_, metadata_only_, share_.Filter());
    if (!set.Ok())
        log::Logger().WithName("shard-ring").Error(set, "the cache could not take the new share", "kind", primary_);
}

}  // namespace ctrl::shardedcontroller
