// EnqueueRequestForObject: the object's own key for every event type.

#include "ctrl/handler/enqueue_request_for_object.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "test/unit/handler/recording_queue.hpp"

namespace ctrl::handler {
namespace {

using controller::testing::MakeObject;
using controller::testing::RecordingQueue;
using reconcile::Request;

TEST(EnqueueRequestForObjectTest, EnqueuesTheObjectsKeyForEveryEventType) {
    const std::shared_ptr<EventHandler> handler = EnqueueRequestForObject();
    RecordingQueue queue;
    const Context ctx = Context::Background();
    handler->Create(ctx, event::CreateEvent(MakeObject("ns1", "a")), queue);
    handler->Delete(ctx, event::DeleteEvent(MakeObject("ns1", "b"), true), queue);
    handler->Generic(ctx, event::GenericEvent(MakeObject("", "node-1")), queue);
    EXPECT_EQ(queue.Added(), (std::vector<Request>{Request("ns1", "a"), Request("ns1", "b"), Request("", "node-1")}));
}

TEST(EnqueueRequestForObjectTest, AnUpdateEnqueuesItsKeyOnceOrBothKeysWhenTheyDiffer) {
    const std::shared_ptr<EventHandler> handler = EnqueueRequestForObject();
    const Context ctx = Context::Background();
    RecordingQueue same;
    handler->Update(ctx, event::UpdateEvent(MakeObject("ns1", "a"), MakeObject("ns1", "a")), same);
    EXPECT_EQ(same.Added(), (std::vector<Request>{Request("ns1", "a")}));

    RecordingQueue differ;
    handler->Update(ctx, event::UpdateEvent(MakeObject("ns1", "old"), MakeObject("ns2", "new")), differ);
    EXPECT_EQ(differ.Added(), (std::vector<Request>{Request("ns2", "new"), Request("ns1", "old")}));

    RecordingQueue only_old;
    handler->Update(ctx, event::UpdateEvent(MakeObject("ns1", "a"), nullptr), only_old);
    EXPECT_EQ(only_old.Added(), (std::vector<Request>{Request("ns1", "a")}));
}

TEST(EnqueueRequestForObjectTest, AnEventWithoutAnObjectEnqueuesNothing) {
    const std::shared_ptr<EventHandler> handler = EnqueueRequestForObject();
    RecordingQueue queue;
    const Context ctx = Context::Background();
    handler->Create(ctx, event::CreateEvent(), queue);
    handler->Update(ctx, event::UpdateEvent(), queue);
    handler->Delete(ctx, event::DeleteEvent(), queue);
    handler->Generic(ctx, event::GenericEvent(), queue);
    EXPECT_TRUE(queue.Added().empty());
}

}  // namespace
}  // namespace ctrl::handler
