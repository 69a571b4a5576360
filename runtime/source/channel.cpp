#include "ctrl/source/channel.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>

namespace ctrl::source {
namespace internal {

// One Channel source's end of the channel: the events it has yet to deliver and, once started,
// where and to whom it delivers them. Offer queues an event and, when the source runs and no
// delivery is scheduled, posts one to the executor; a delivery hands over everything queued, one
// event at a time, so the handler never gets two calls at once. Thread-safe.
class ChannelSubscriber final : public std::enable_shared_from_this<ChannelSubscriber> {
  public:
    ChannelSubscriber(std::shared_ptr<handler::EventHandler> handler, std::vector<predicate::PredicatePtr> predicates)
        : handler_(std::move(handler)), predicates_(std::move(predicates)) {}

    void Offer(event::GenericEvent event) {
        std::lock_guard lock(mu_);
        if (stopped_)
            return;
        pending_.push_back(std::move(event));
        ScheduleLocked();
    }

    // Returns false when it was started before.
    bool Begin(Context ctx, boost::asio::any_io_executor executor, handler::RequestQueue& queue) {
        std::lock_guard lock(mu_);
        if (executor_ || stopped_)
            return false;
        executor_ = std::move(executor);
        ctx_ = std::move(ctx);
        queue_ = &queue;
        ScheduleLocked();
        return true;
    }

    void Stop() {
        std::lock_guard lock(mu_);
        stopped_ = true;
        pending_.clear();
    }

  private:
    void ScheduleLocked() {
        if (!executor_ || scheduled_ || pending_.empty() || stopped_)
            return;
        scheduled_ = true;
        boost::asio::post(*executor_, [self = shared_from_this()] { self->Deliver(); });
    }

    void Deliver() {
        std::unique_lock lock(mu_);
        while (!pending_.empty() && !stopped_) {
            const event::GenericEvent event = std::move(pending_.front());
            pending_.pop_front();
            lock.unlock();
            if (predicate::PassesGeneric(predicates_, event))
                handler_->Generic(*ctx_, event, *queue_);
            lock.lock();
        }
        scheduled_ = false;
    }

    const std::shared_ptr<handler::EventHandler> handler_;
    const std::vector<predicate::PredicatePtr> predicates_;

    std::mutex mu_;
    std::deque<event::GenericEvent> pending_;
    std::optional<boost::asio::any_io_executor> executor_;
    std::optional<Context> ctx_;
    handler::RequestQueue* queue_ = nullptr;
    bool scheduled_ = false;
    bool stopped_ = false;
};

}  // namespace internal

void EventChannel::Push(event::GenericEvent event) {
    std::lock_guard lock(mu_);
    if (subscribers_.empty()) {
        backlog_.push_back(std::move(event));
        return;
    }
    for (const auto& subscriber : subscribers_)
        subscriber->Offer(event);
}

void EventChannel::Push(std::shared_ptr<const Object> object) {
    Push(event::GenericEvent(std::move(object)));
}

std::size_t EventChannel::Subscribers() const {
    std::lock_guard lock(mu_);
    return subscribers_.size();
}

void EventChannel::Subscribe(const std::shared_ptr<internal::ChannelSubscriber>& subscriber) {
    std::lock_guard lock(mu_);
    for (event::GenericEvent& event : backlog_)
        subscriber->Offer(std::move(event));
    backlog_.clear();
    subscribers_.push_back(subscriber);
}

void EventChannel::Unsubscribe(const internal::ChannelSubscriber* subscriber) {
    std::lock_guard lock(mu_);
    std::erase_if(subscribers_, [&](const auto& s) { return s.get() == subscriber; });
}

ChannelSource::ChannelSource(std::shared_ptr<EventChannel> channel, std::shared_ptr<handler::EventHandler> handler,
                             std::vector<predicate::PredicatePtr> predicates)
    : channel_(std::move(channel)),
      handler_(handler),
      subscriber_(std::make_shared<internal::ChannelSubscriber>(std::move(handler), std::move(predicates))) {
    channel_->Subscribe(subscriber_);
}

ChannelSource::~ChannelSource() {
    subscriber_->Stop();
    channel_->Unsubscribe(subscriber_.get());
}

Task<Status> ChannelSource::Start(Context ctx, RequestQueue& queue) {
    if (started_.exchange(true))
        co_return AlreadyExistsError(String() + " was started already");
    CTRL_CO_RETURN_IF_ERROR((co_await handler_->Prepare(ctx)).Annotate("preparing the event handler"));
    const boost::asio::any_io_executor executor = co_await boost::asio::this_coro::executor;
    if (!subscriber_->Begin(ctx, executor, queue))
        co_return AlreadyExistsError(String() + " was started already");
    // The channel forgets this source when ctx ends.
    const std::weak_ptr<internal::ChannelSubscriber> subscriber = subscriber_;
    const std::weak_ptr<EventChannel> channel = channel_;
    (void)ctx.OnCancel([subscriber, channel](const Status&) {
        auto s = subscriber.lock();
        if (!s)
            return;
        s->Stop();
        if (auto c = channel.lock())
            c->Unsubscribe(s.get());
    });
    co_return OkStatus();
}

std::string ChannelSource::String() const {
    return "channel source";
}

std::shared_ptr<Source> Channel(std::shared_ptr<EventChannel> channel, std::shared_ptr<handler::EventHandler> handler,
                                std::vector<predicate::PredicatePtr> predicates) {
    return std::make_shared<ChannelSource>(std::move(channel), std::move(handler), std::move(predicates));
}

}  // namespace ctrl::source
