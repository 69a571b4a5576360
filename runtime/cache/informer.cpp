#include "runtime/cache/informer.hpp"

#include <exception>
#include <utility>

#include <boost/asio/co_spawn.hpp>

#include "runtime/core/sleep.hpp"

namespace ctrl::cache {

Informer::Informer(GroupVersionKind gvk, std::shared_ptr<rest::RestClient> client, ListWatchTarget target,
                   StoreOptions store_options, ReflectorOptions reflector_options)
    : gvk_(std::move(gvk)),
      client_(std::move(client)),
      store_(std::move(store_options)),
      reflector_(*client_, std::move(target), store_, reflector_options),
      resync_period_(reflector_options.resync_period) {}

void Informer::Start(boost::asio::any_io_executor executor, Context ctx) {
    if (started_.exchange(true))
        return;
    running_->fetch_add(1);
    boost::asio::co_spawn(executor, RunReflector(shared_from_this(), ctx),
                          [running = running_](std::exception_ptr /*error*/) { running->fetch_sub(1); });
    if (resync_period_.count() > 0) {
        running_->fetch_add(1);
        boost::asio::co_spawn(executor, ResyncLoop(shared_from_this(), std::move(ctx)),
                              [running = running_](std::exception_ptr /*error*/) { running->fetch_sub(1); });
    }
}

Task<void> Informer::RunReflector(std::shared_ptr<Informer> self, Context ctx) {
    co_await self->reflector_.Run(std::move(ctx));
}

Task<void> Informer::ResyncLoop(std::shared_ptr<Informer> self, Context ctx) {
    while (true) {
        if (Status slept = co_await SleepFor(self->resync_period_, ctx); !slept.Ok())
            co_return;
        self->reflector_.Resync();
    }
}

Task<Status> Informer::WaitForSync(Context ctx) const {
    Status synced = co_await reflector_.WaitForSync(std::move(ctx));
    if (synced.Ok())
        co_return synced;
    co_return synced.Annotate(gvk_.String());
}

}  // namespace ctrl::cache
