#include "runtime/cache/informer.hpp"

#include <exception>
#include <utility>

#include <boost/asio/co_spawn.hpp>

namespace ctrl::cache {

Informer::Informer(GroupVersionKind gvk, rest::RestClient& client, ListWatchTarget target, StoreOptions store_options,
                   ReflectorOptions reflector_options)
    : gvk_(std::move(gvk)),
      store_(std::move(store_options)),
      reflector_(client, std::move(target), store_, reflector_options) {}

void Informer::Start(boost::asio::any_io_executor executor, Context ctx) {
    if (started_.exchange(true))
        return;
    boost::asio::co_spawn(executor, reflector_.Run(std::move(ctx)),
                          [stopped = stopped_](std::exception_ptr /*error*/) { stopped->store(true); });
}

Task<Status> Informer::WaitForSync(Context ctx) const {
    Status synced = co_await reflector_.WaitForSync(std::move(ctx));
    if (synced.Ok())
        co_return synced;
    co_return synced.Annotate(gvk_.String());
}

}  // namespace ctrl::cache
