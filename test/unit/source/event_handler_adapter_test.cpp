// The adapter between an informer's notifications and a controller's handler: which event each
// notification becomes, its flags, the predicates, and the gate that stops deliveries.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "ctrl/source/internal/event_handler_adapter.hpp"
#include "ctrl/workqueue/queue.hpp"
#include "test/support/recording_event_handler.hpp"

namespace ctrl::source::test {
namespace {

using ctrl::testing::NameIsNot;
using ctrl::testing::RecordingHandler;

std::shared_ptr<const Object> Named(const std::string& name) {
    auto object = std::make_shared<Object>();
    object->SetNamespace("ns");
    object->SetName(name);
    return object;
}

TEST(EventHandlerAdapterTest, NotificationsBecomeEventsThroughThePredicates) {
    boost::asio::io_context io;
    workqueue::Queue<reconcile::Request> queue(io.get_executor());
    auto handler = std::make_shared<RecordingHandler>();
    auto gate = std::make_shared<internal::DeliveryGate>();
    internal::EventHandlerAdapter adapter(Context::Background(), queue, handler,
                                          {std::make_shared<NameIsNot>("hidden")}, gate);
    adapter.OnAdd(Named("a"), true);
    adapter.OnAdd(Named("b"), false);
    adapter.OnAdd(Named("hidden"), false);
    adapter.OnUpdate(Named("a"), Named("a"));
    adapter.OnDelete(Named("b"), false);
    adapter.OnDelete(Named("a"), true);
    adapter.OnDelete(Named("hidden"), true);
    EXPECT_EQ(handler->Log(),
              (std::vector<std::string>{"create a initial", "create b", "update a", "delete b", "delete a unknown"}));
    EXPECT_EQ(queue.Len(), 2u);

    gate->stopped = true;
    adapter.OnAdd(Named("c"), false);
    EXPECT_EQ(handler->Log().size(), 5u) << "nothing after the gate stopped";
}

}  // namespace
}  // namespace ctrl::source::test
