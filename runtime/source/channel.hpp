#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/event/event.hpp"
#include "ctrl/handler/handler.hpp"
#include "ctrl/predicate/predicate.hpp"
#include "ctrl/source/source.hpp"

namespace ctrl::source {

namespace internal {
class ChannelSubscriber;
}  // namespace internal

// Carries events from user code (a webhook, a timer, another system) to the Channel sources made
// from it (controller-runtime's source.Channel with its channel): every Channel source gets every
// event pushed after it was made, so several controllers can share one channel. A source buffers
// what is pushed before it starts (without bound: start the controllers that use a channel);
// events pushed while no source exists are kept for the first one made. Push never blocks on a
// handler. Thread-safe; share it as a std::shared_ptr.
class EventChannel final {
  public:
    EventChannel() = default;
    EventChannel(const EventChannel&) = delete;
    EventChannel& operator=(const EventChannel&) = delete;

    void Push(event::GenericEvent event);
    // Push(GenericEvent(object)).
    void Push(std::shared_ptr<const Object> object);

    // How many sources receive what is pushed now.
    std::size_t Subscribers() const;

  private:
    friend class ChannelSource;
    void Subscribe(const std::shared_ptr<internal::ChannelSubscriber>& subscriber);
    void Unsubscribe(const internal::ChannelSubscriber* subscriber);

    mutable std::mutex mu_;
    std::vector<std::shared_ptr<internal::ChannelSubscriber>> subscribers_;
    std::deque<event::GenericEvent> backlog_;  // pushed while no source existed
};

// Delivers the events of an EventChannel to its handler's Generic, through its predicates, one at
// a time on the executor Start ran on, until Start's context ends (then it leaves the channel).
// Start calls the handler's Prepare first. Thread-safe.
class ChannelSource final : public Source {
  public:
    ChannelSource(std::shared_ptr<EventChannel> channel, std::shared_ptr<handler::EventHandler> handler,
                  std::vector<predicate::PredicatePtr> predicates);
    ~ChannelSource() override;

    Task<Status> Start(Context ctx, RequestQueue& queue) override;
    // "channel source".
    std::string String() const override;

  private:
    const std::shared_ptr<EventChannel> channel_;
    const std::shared_ptr<handler::EventHandler> handler_;
    const std::shared_ptr<internal::ChannelSubscriber> subscriber_;
    std::atomic<bool> started_{false};
};

// A source of the events pushed to channel (controller-runtime's source.Channel).
std::shared_ptr<Source> Channel(std::shared_ptr<EventChannel> channel, std::shared_ptr<handler::EventHandler> handler,
                                std::vector<predicate::PredicatePtr> predicates = {});

}  // namespace ctrl::source
