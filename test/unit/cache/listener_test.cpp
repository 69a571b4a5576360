// One handler's queue (internal::Listener): notifications in the order queued, one delivery at a
// time, an exception caught around each call (logged and counted), a handler that queues more from
// inside its call, HasSynced after the marker, nothing after Stop.

#include "ctrl/cache/internal/listener.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ctrl/log/log.hpp"

namespace ctrl::cache::internal {
namespace {

std::shared_ptr<const Object> Named(const std::string& name) {
    auto object = std::make_shared<Object>();
    object->SetNamespace("ns");
    object->SetName(name);
    return object;
}

// Records "add a", "update a", "delete a"; throws on the objects named "boom".
struct Recording final : EventHandler {
    std::vector<std::string> calls;
    std::function<void()> inside;

    void Note(const std::string& line, const Object& object) {
        calls.push_back(line + " " + std::string(object.Name()));
        if (inside)
            inside();
        if (object.Name() == "boom")
            throw std::runtime_error("handler failure");
    }
    void OnAdd(const std::shared_ptr<const Object>& object, bool) override { Note("add", *object); }
    void OnUpdate(const std::shared_ptr<const Object>&, const std::shared_ptr<const Object>& object) override {
        Note("update", *object);
    }
    void OnDelete(const std::shared_ptr<const Object>& object, bool) override { Note("delete", *object); }
};

// Counts the "cache" logger's Error lines.
struct CountingSink final : log::Sink {
    int errors = 0;
    void Write(const log::Record& record) override {
        if (record.logger == "cache" && record.is_error)
            ++errors;
    }
};

class ListenerTest : public ::testing::Test {
  protected:
    void SetUp() override { log::SetSink(sink_); }
    void TearDown() override { log::SetSink(nullptr); }

    double Panics() {
        return registry_.AddCounter("ctrl_informer_handler_panics_total", "", {"gvk"})
            .WithLabelValues({"/v1, Kind=ConfigMap"})
            .Value();
    }

    metrics::Registry registry_;
    std::shared_ptr<CountingSink> sink_ = std::make_shared<CountingSink>();
    std::shared_ptr<Recording> handler_ = std::make_shared<Recording>();
    Listener listener_{handler_, std::make_shared<const InformerFaults>("/v1, Kind=ConfigMap", registry_)};
};

TEST_F(ListenerTest, DeliversInOrderAndGoesOnAfterAHandlerThrows) {
    listener_.QueueAdd(Named("a"), true);
    listener_.QueueUpdate(Named("a"), Named("boom"));
    listener_.QueueDelete(Named("a"), false);
    EXPECT_TRUE(handler_->calls.empty()) << "queued, not called";
    listener_.Deliver();
    EXPECT_EQ(handler_->calls, (std::vector<std::string>{"add a", "update boom", "delete a"}));
    EXPECT_EQ(Panics(), 1);
    EXPECT_EQ(sink_->errors, 1);
    EXPECT_FALSE(listener_.HasPending());
}

TEST_F(ListenerTest, WhatTheHandlerQueuesFromInsideItsCallFollowsInOrder) {
    handler_->inside = [this] {
        if (handler_->calls.size() == 1) {
            listener_.QueueAdd(Named("c"), false);
            listener_.Deliver();  // a delivery is under way: it returns at once
        }
    };
    listener_.QueueAdd(Named("a"), false);
    listener_.QueueAdd(Named("b"), false);
    listener_.Deliver();
    EXPECT_EQ(handler_->calls, (std::vector<std::string>{"add a", "add b", "add c"}));
}

TEST_F(ListenerTest, HasSyncedOnceEverythingBeforeTheMarkerIsDelivered) {
    listener_.QueueAdd(Named("a"), true);
    listener_.QueueSynced();
    EXPECT_FALSE(listener_.HasSynced());
    listener_.Deliver();
    EXPECT_TRUE(listener_.HasSynced());
}

TEST_F(ListenerTest, StopDropsWhatIsQueuedAndEverythingLater) {
    listener_.QueueAdd(Named("a"), false);
    listener_.Stop();
    listener_.QueueAdd(Named("b"), false);
    listener_.Deliver();
    EXPECT_TRUE(handler_->calls.empty());
}

TEST_F(ListenerTest, StopLetsGoOfTheHandler) {
    // A handler may keep what refers back to its listener (its own registration): Stop breaks that
    // cycle, so nothing leaks once the handler is removed or the informer is gone.
    const std::weak_ptr<Recording> watched = handler_;
    handler_.reset();
    EXPECT_FALSE(watched.expired()) << "the listener holds its handler while it runs";
    listener_.Stop();
    EXPECT_TRUE(watched.expired());
    listener_.QueueAdd(Named("a"), false);
    listener_.Deliver();
}

}  // namespace
}  // namespace ctrl::cache::internal
