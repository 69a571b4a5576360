#pragma once

#include <memory>
#include <type_traits>
#include <utility>

#include "runtime/core/task.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>

namespace ctrl::workqueue::internal {

// The completion handler of one asynchronous wait on a queue (AsyncGet, AsyncShutDownWithDrain),
// type-erased and move-only. While it is held it counts as outstanding work of the handler's
// executor, so an io_context whose coroutine waits for an item does not run out of work. Post
// runs the handler on that executor, never on the calling thread (the caller may be a producer
// thread, or hold a lock). Post at most once.
template <typename... Args>
class Completion final {
  public:
    template <typename Handler>
    requires(!std::is_same_v<std::decay_t<Handler>, Completion>) explicit Completion(Handler handler)
        : impl_(std::make_unique<Impl<Handler>>(std::move(handler))) {}
    Completion(Completion&&) noexcept = default;
    Completion& operator=(Completion&&) noexcept = default;

    void Post(Args... args) && {
        std::unique_ptr<Base> impl = std::move(impl_);
        impl->Post(std::move(args)...);
    }

  private:
    struct Base {
        virtual ~Base() = default;
        virtual void Post(Args... args) = 0;
    };

    template <typename Handler>
    struct Impl final : Base {
        explicit Impl(Handler h)
            : handler(std::move(h)),
              work(boost::asio::prefer(boost::asio::get_associated_executor(handler),
                                       boost::asio::execution::outstanding_work.tracked)) {}

        void Post(Args... args) override {
            boost::asio::post(work, [h = std::move(handler), ... args = std::move(args)]() mutable {
                std::move(h)(std::move(args)...);
            });
        }

        Handler handler;
        boost::asio::any_io_executor work;
    };

    std::unique_ptr<Base> impl_;
};

}  // namespace ctrl::workqueue::internal
