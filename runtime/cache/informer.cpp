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
    stopped_.Notify();
    co_return ended;
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
