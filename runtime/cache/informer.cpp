#include "ctrl/cache/informer.hpp"

#include <exception>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/this_coro.hpp>

#include "ctrl/cache/internal/processor.hpp"
#include "ctrl/core/sleep.hpp"

namespace ctrl::cache {

Informer::Informer(GroupVersionKind gvk, std::shared_ptr<rest::RestClient> client, ListWatchTarget target,
                   StoreOptions store_options, ReflectorOptions reflector_options, metrics::Registry& registry)
    : gvk_(std::move(gvk)),
      client_(std::move(client)),
      store_(std::move(store_options)),
      processor_(std::make_unique<internal::Processor>(store_, target.Describe(), gvk_.String(), registry)),
      reflector_(*client_, std::move(target), store_, *processor_, reflector_options, gvk_.String(), registry),
      resync_period_(reflector_options.resync_period) {}

Informer::~Informer() = default;

EventHandlerRegistration Informer::AddEventHandler(std::shared_ptr<EventHandler> handler) {
    return processor_->AddEventHandler(std::move(handler));
}

Status Informer::RemoveEventHandler(const EventHandlerRegistration& registration) {
    return processor_->RemoveEventHandler(registration);
}

Task<Status> Informer::Run(Context ctx) {
    if (started_.exchange(true))
        co_return AlreadyExistsError("the informer of " + gvk_.String() + " is running already");
    // Keeps the Informer while it runs (null when it is not owned by a shared_ptr; then the
    // caller keeps it).
    const std::shared_ptr<Informer> self = weak_from_this().lock();
    std::shared_ptr<Notification> resync_done;
    const Context run_ctx = Context::WithCancel(ctx);
    {
        std::lock_guard lock(stop_mu_);
        run_ctx_ = run_ctx;
        if (stop_requested_)
            run_ctx.Cancel();
    }
    const auto executor = co_await boost::asio::this_coro::executor;
    processor_->SetExecutor(executor);
    if (resync_period_.count() > 0 && self) {
        resync_done = std::make_shared<Notification>();
        boost::asio::co_spawn(executor, ResyncLoop(run_ctx, self),
                              [resync_done](std::exception_ptr) { resync_done->Notify(); });
    }
    // The reflector retries every failure; only a bug (an exception) ends it before ctx does.
    Status ended = OkStatus();
    try {
        co_await reflector_.Run(run_ctx);
    } catch (const std::exception& e) {
        ended = InternalError("the informer of " + gvk_.String() + " failed: " + e.what());
    }
    run_ctx.Cancel();
    if (resync_done)
        (void)co_await resync_done->Wait(Context::Background());
    co_return Finish(std::move(ended));
}

Status Informer::Finish(Status ended) {
    std::vector<Context> listeners;
    bool removed = false;
    {
        std::lock_guard lock(stop_mu_);
        run_ctx_.reset();
        finished_ = true;
        removed = stop_requested_;
        listeners.swap(stop_listeners_);
    }
    const Status not_served = reflector_.StopReason();
    if (removed || !not_served.Ok())
        reflector_.Clear();
    if (ended.Ok() && !not_served.Ok())
        ended = not_served;
    stopped_.Notify();
    const Status reason = StopListenersReason();
    for (const Context& listener : listeners)
        listener.Cancel(reason);
    return ended;
}

void Informer::Stop() {
    std::lock_guard lock(stop_mu_);
    stop_requested_ = true;
    if (run_ctx_)
        run_ctx_->Cancel();
}

Status Informer::StopReason() const {
    if (Status not_served = reflector_.StopReason(); !not_served.Ok())
        return not_served;
    std::lock_guard lock(stop_mu_);
    if (stop_requested_)
        return CancelledError("the informer of " + gvk_.String() + " was removed");
    return OkStatus();
}

Status Informer::StopListenersReason() const {
    Status reason = StopReason();
    return reason.Ok() ? CancelledError("the informer of " + gvk_.String() + " stopped") : reason;
}

void Informer::CancelOnStop(Context ctx) {
    {
        std::lock_guard lock(stop_mu_);
        if (!finished_) {
            // Listeners whose context ended (a source's finished round) are dropped as new ones come.
            std::erase_if(stop_listeners_, [](const Context& listener) { return !listener.Err().Ok(); });
            stop_listeners_.push_back(std::move(ctx));
            return;
        }
    }
    ctx.Cancel(StopListenersReason());
}

Task<void> Informer::ResyncLoop(Context ctx, std::shared_ptr<Informer> self) {
    while (true) {
        if (Status slept = co_await SleepFor(ctx, self->resync_period_); !slept.Ok())
            co_return;
        self->processor_->Resync();
    }
}

Task<Status> Informer::WaitForSync(Context ctx) const {
    Status synced = co_await reflector_.WaitForSync(std::move(ctx));
    if (synced.Ok())
        co_return synced;
    co_return synced.Annotate(gvk_.String());
}

}  // namespace ctrl::cache
