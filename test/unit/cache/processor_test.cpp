// An informer's handler dispatch (internal::Processor): a batch's changes reach every handler when
// the batch ends, not before; the first list syncs each registration and wakes its WaitForSync
// without a timer; a late handler gets the store on the executor, then later changes; a removed
// handler gets nothing more and its wait ends; a handler may call back into the processor; Resync
// waits for the first list; a relist queues references into the store, each object decoded only as
// it is delivered.

#include "ctrl/cache/internal/processor.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ctrl/core/context.hpp"
#include "test/support/heap_in_use.hpp"
#include "test/support/manual_loop.hpp"

namespace ctrl::cache::internal {
namespace {

Object Pod(const std::string& name, const std::string& resource_version) {
    Object object;
    object.SetApiVersion("v1");
    object.SetKind("Pod");
    object.SetNamespace("ns");
    object.SetName(name);
    object.SetResourceVersion(resource_version);
    return object;
}

// Records "add a initial", "update a", "delete a unknown"; `inside` runs in every call.
struct Recording final : EventHandler {
    std::vector<std::string> calls;
    std::function<void()> inside;

    void Note(std::string line) {
        calls.push_back(std::move(line));
        if (inside)
            inside();
    }
    void OnAdd(const std::shared_ptr<const Object>& object, bool initial) override {
        Note("add " + std::string(object->Name()) + (initial ? " initial" : ""));
    }
    void OnUpdate(const std::shared_ptr<const Object>&, const std::shared_ptr<const Object>& object) override {
        Note("update " + std::string(object->Name()));
    }
    void OnDelete(const std::shared_ptr<const Object>& object, bool unknown) override {
        Note("delete " + std::string(object->Name()) + (unknown ? " unknown" : ""));
    }
};

class ProcessorTest : public ::testing::Test {
  protected:
    ProcessorTest() { processor_.SetExecutor(loop_.Executor()); }

    // The first list (or a relist) of the named pods, through a batch as the reflector makes it.
    void List(const std::vector<std::string>& names, bool initial) {
        std::vector<Object> objects;
        for (const std::string& name : names)
            objects.push_back(Pod(name, "1"));
        Processor::Batch batch = processor_.Begin();
        StatusOr<StoreReplaceResult> result = store_.Replace(std::move(objects), "1");
        ASSERT_TRUE(result.Ok()) << result.GetStatus();
        batch.Replaced(*result, initial);
    }
    // Starts registration.WaitForSync on the loop; its result once it ends.
    std::shared_ptr<std::optional<Status>> StartWait(const EventHandlerRegistration& registration, Context ctx) {
        return loop_.Spawn(registration.WaitForSync(std::move(ctx)));
    }
    void RunReady() { loop_.RunReady(); }

    ctrl::testing::ManualLoop loop_;
    metrics::Registry registry_;
    Store store_;
    Processor processor_{store_, "pods.v1", "/v1, Kind=Pod", registry_};
    std::shared_ptr<Recording> handler_ = std::make_shared<Recording>();
};

TEST_F(ProcessorTest, ABatchsChangesReachTheHandlersWhenItEnds) {
    processor_.AddEventHandler(handler_);
    List({"a", "b"}, /*initial=*/true);
    EXPECT_EQ(handler_->calls, (std::vector<std::string>{"add a initial", "add b initial"}));
    {
        Processor::Batch batch = processor_.Begin();
        StatusOr<StoreChange> change = store_.Update(Pod("a", "2"));
        ASSERT_TRUE(change.Ok());
        batch.Changed(*change);
        batch.Deleted(store_.Delete("ns", "b").Shared(), /*final_state_unknown=*/false);
        EXPECT_EQ(handler_->calls.size(), 2u) << "queued, not delivered, while the batch lives";
    }
    EXPECT_EQ(handler_->calls, (std::vector<std::string>{"add a initial", "add b initial", "update a", "delete b"}));
    List({"c"}, /*initial=*/false);
    EXPECT_EQ(handler_->calls.back(), "delete a unknown");
    EXPECT_EQ(handler_->calls.at(4), "add c");
}

TEST_F(ProcessorTest, TheFirstListSyncsEachRegistrationAndWakesItsWaitWithoutATimer) {
    const EventHandlerRegistration registration = processor_.AddEventHandler(handler_);
    const auto waited = StartWait(registration, Context::Background());
    RunReady();
    EXPECT_FALSE(waited->has_value()) << "nothing listed yet";
    EXPECT_FALSE(registration.HasSynced());
    List({"a"}, /*initial=*/true);
    EXPECT_TRUE(registration.HasSynced());
    RunReady();  // no timer runs: the delivery's notification resumes the wait
    ASSERT_TRUE(waited->has_value());
    EXPECT_TRUE(waited->value().Ok()) << waited->value();
    const auto again = StartWait(registration, Context::Background());
    RunReady();
    ASSERT_TRUE(again->has_value()) << "a wait begun once synced returns at once";
    EXPECT_TRUE(again->value().Ok());
}

TEST_F(ProcessorTest, ALateHandlerGetsTheStoreOnTheExecutorThenLaterChanges) {
    List({"a", "b"}, /*initial=*/true);
    const EventHandlerRegistration registration = processor_.AddEventHandler(handler_);
    EXPECT_TRUE(handler_->calls.empty()) << "the replay is posted, not run on the caller's thread";
    EXPECT_FALSE(registration.HasSynced());
    const auto waited = StartWait(registration, Context::Background());
    RunReady();
    EXPECT_EQ(handler_->calls, (std::vector<std::string>{"add a initial", "add b initial"}));
    ASSERT_TRUE(waited->has_value());
    EXPECT_TRUE(waited->value().Ok());
    {
        Processor::Batch batch = processor_.Begin();
        batch.Changed(*store_.Update(Pod("c", "3")));
    }
    EXPECT_EQ(handler_->calls.back(), "add c");
}

TEST_F(ProcessorTest, ARemovedHandlerGetsNothingMoreAndItsWaitEnds) {
    const EventHandlerRegistration registration = processor_.AddEventHandler(handler_);
    const auto waited = StartWait(registration, Context::Background());
    ASSERT_TRUE(processor_.RemoveEventHandler(registration).Ok());
    RunReady();
    ASSERT_TRUE(waited->has_value());
    EXPECT_TRUE(IsCancelled(waited->value())) << waited->value();
    List({"a"}, /*initial=*/true);
    EXPECT_TRUE(handler_->calls.empty());
    EXPECT_TRUE(IsNotFound(processor_.RemoveEventHandler(registration)));
    const auto null_wait = StartWait(EventHandlerRegistration(), Context::Background());
    RunReady();
    ASSERT_TRUE(null_wait->has_value());
    EXPECT_TRUE(IsCancelled(null_wait->value()));
}

TEST_F(ProcessorTest, AWaitEndsWithItsContext) {
    const EventHandlerRegistration registration = processor_.AddEventHandler(handler_);
    const Context ctx = Context::WithCancel(Context::Background());
    const auto waited = StartWait(registration, ctx);
    RunReady();
    ctx.Cancel();
    RunReady();
    ASSERT_TRUE(waited->has_value());
    EXPECT_TRUE(IsCancelled(waited->value())) << waited->value();
}

TEST_F(ProcessorTest, AHandlerMayAddAndRemoveHandlersFromItsCall) {
    auto second = std::make_shared<Recording>();
    EventHandlerRegistration first = processor_.AddEventHandler(handler_);
    EventHandlerRegistration added;
    handler_->inside = [&] {
        if (!added)
            added = processor_.AddEventHandler(second);
        else
            (void)processor_.RemoveEventHandler(first);
    };
    List({"a"}, /*initial=*/true);
    RunReady();
    EXPECT_EQ(second->calls, (std::vector<std::string>{"add a initial"})) << "replayed from the store";
    {
        Processor::Batch batch = processor_.Begin();
        batch.Changed(*store_.Update(Pod("a", "2")));
    }
    EXPECT_EQ(handler_->calls, (std::vector<std::string>{"add a initial", "update a"}));
    EXPECT_EQ(second->calls, (std::vector<std::string>{"add a initial", "update a"}));
}

TEST_F(ProcessorTest, ResyncUpdatesEveryObjectOnceListed) {
    processor_.AddEventHandler(handler_);
    processor_.Resync();
    EXPECT_TRUE(handler_->calls.empty()) << "nothing listed yet";
    List({"a", "b"}, /*initial=*/true);
    processor_.Resync();
    EXPECT_EQ(handler_->calls, (std::vector<std::string>{"add a initial", "add b initial", "update a", "update b"}));
}

TEST_F(ProcessorTest, ARelistQueuesReferencesIntoTheStoreNotDecodedObjects) {
    // 2,000 pods of ~4 KB: decoded while queued they would hold over 8 MB until delivered.
    constexpr int kPods = 2000;
    std::vector<Object> objects;
    for (int i = 0; i < kPods; ++i) {
        Object pod = Pod("pod-" + std::to_string(i), "1");
        pod.SetAnnotation("note", std::string(4096, static_cast<char>('a' + i % 26)));
        objects.push_back(std::move(pod));
    }
    StatusOr<StoreReplaceResult> result = store_.Replace(std::move(objects), "1");
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    processor_.AddEventHandler(handler_);
    std::size_t largest_pending = 0;
    {
        Processor::Batch batch = processor_.Begin();
        const std::size_t before = ctrl::testing::HeapInUse();
        batch.Replaced(*result, /*initial=*/false);
        const std::size_t after = ctrl::testing::HeapInUse();
        largest_pending = after > before ? after - before : 0;
        EXPECT_TRUE(handler_->calls.empty());
    }
    EXPECT_LT(largest_pending, std::size_t{kPods} * 1024) << "bytes held by the queued notifications";
    ASSERT_EQ(handler_->calls.size(), std::size_t{kPods});
    EXPECT_EQ(handler_->calls.front(), "add pod-0");
}

}  // namespace
}  // namespace ctrl::cache::internal
