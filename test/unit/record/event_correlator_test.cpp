// client-go's event correlation: identical events counted on one Event, similar ones combined,
// a token bucket per source + object; with a clock the tests move.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "ctrl/api/event.hpp"
#include "ctrl/record/event_correlator.hpp"

namespace ctrl::record {
namespace {

using namespace std::chrono_literals;

class EventCorrelatorTest : public ::testing::Test {
  protected:
    EventCorrelator NewCorrelator() {
        CorrelatorOptions options;
        options.now = [this] { return now_; };
        return EventCorrelator(options);
    }

    api::Event NewEvent(const std::string& object, const std::string& reason, const std::string& message) {
        api::Event event;
        event.SetName(EventName(object, now_));
        event.SetNamespace("ns");
        api::ObjectReference ref;
        ref.api_version = "v1";
        ref.kind = "Pod";
        ref.namespace_name = "ns";
        ref.name = object;
        ref.uid = "uid-" + object;
        event.SetInvolvedObject(ref);
        event.SetReason(reason);
        event.SetMessage(message);
        event.SetType(api::kEventTypeNormal);
        event.SetCount(1);
        event.SetFirstTimestamp(now_);
        event.SetLastTimestamp(now_);
        event.SetSource(api::EventSource{"my-controller", "host-1"});
        event.SetReportingController("my-controller");
        event.SetReportingInstance("host-1");
        return event;
    }

    // What the server answers for a write of event.
    static api::Event Written(const api::Event& event, const std::string& resource_version) {
        api::Event written = event.DeepCopy();
        written.SetResourceVersion(resource_version);
        return written;
    }

    api::Timestamp now_ = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));
};

TEST_F(EventCorrelatorTest, AFirstEventIsWrittenAsItIs) {
    EventCorrelator correlator = NewCorrelator();
    const api::Event event = NewEvent("web", "Created", "created it");
    CorrelateResult result = correlator.Correlate(event.DeepCopy());
    EXPECT_FALSE(result.skip);
    EXPECT_FALSE(result.update_existing);
    EXPECT_EQ(result.event.Name(), event.Name());
    EXPECT_EQ(result.event.Count(), 1);
}

TEST_F(EventCorrelatorTest, IdenticalEventsRaiseTheCountOfTheFirst) {
    EventCorrelator correlator = NewCorrelator();
    const api::Event first = NewEvent("web", "Created", "created it");
    CorrelateResult result = correlator.Correlate(first.DeepCopy());
    correlator.UpdateState(Written(result.event, "100"));
    for (int i = 2; i <= 5; ++i) {
        now_ += 1s;
        result = correlator.Correlate(NewEvent("web", "Created", "created it"));
        ASSERT_FALSE(result.skip);
        EXPECT_TRUE(result.update_existing);
        EXPECT_EQ(result.event.Name(), first.Name());
        EXPECT_EQ(result.event.Count(), i);
        EXPECT_EQ(result.event.FirstTimestamp(), first.FirstTimestamp());
        EXPECT_EQ(result.event.LastTimestamp(), now_);
        EXPECT_EQ(result.event.ResourceVersion(), i == 2 ? "100" : std::to_string(100 + i - 1)) << "as last written";
        correlator.UpdateState(Written(result.event, std::to_string(100 + i)));
    }
}

TEST_F(EventCorrelatorTest, EventsOfOtherReasonsOrObjectsAreCountedApart) {
    EventCorrelator correlator = NewCorrelator();
    ASSERT_FALSE(correlator.Correlate(NewEvent("web", "Created", "m")).update_existing);
    EXPECT_FALSE(correlator.Correlate(NewEvent("web", "Deleted", "m")).update_existing);
    EXPECT_FALSE(correlator.Correlate(NewEvent("db", "Created", "m")).update_existing);
    EXPECT_TRUE(correlator.Correlate(NewEvent("web", "Created", "m")).update_existing);
}

TEST_F(EventCorrelatorTest, TheTenthDistinctMessageWithinTenMinutesIsCombined) {
    EventCorrelator correlator = NewCorrelator();
    for (int i = 1; i <= 9; ++i) {
        const CorrelateResult result = correlator.Correlate(NewEvent("web", "Failed", "attempt " + std::to_string(i)));
        EXPECT_FALSE(result.update_existing);
        EXPECT_EQ(result.event.Message(), "attempt " + std::to_string(i));
        now_ += 30s;
    }
    CorrelateResult combined = correlator.Correlate(NewEvent("web", "Failed", "attempt 10"));
    EXPECT_FALSE(combined.update_existing);
    EXPECT_EQ(combined.event.Message(), "(combined from similar events): attempt 10");
    EXPECT_EQ(combined.event.Reason(), "Failed");
    EXPECT_EQ(combined.event.InvolvedObject().name, "web");
    correlator.UpdateState(Written(combined.event, "7"));
    now_ += 1s;
    // Further distinct messages raise the aggregate's count and carry the latest message.
    CorrelateResult next = correlator.Correlate(NewEvent("web", "Failed", "attempt 11"));
    EXPECT_TRUE(next.update_existing);
    EXPECT_EQ(next.event.Name(), combined.event.Name());
    EXPECT_EQ(next.event.Count(), 2);
    EXPECT_EQ(next.event.Message(), "(combined from similar events): attempt 11");
}

TEST_F(EventCorrelatorTest, SimilarEventsFurtherApartThanTheIntervalAreNotCombined) {
    EventCorrelator correlator = NewCorrelator();
    for (int i = 1; i <= 30; ++i) {
        const CorrelateResult result = correlator.Correlate(NewEvent("web", "Failed", "attempt " + std::to_string(i)));
        EXPECT_EQ(result.event.Message(), "attempt " + std::to_string(i));
        now_ += 601s;
    }
}

TEST_F(EventCorrelatorTest, TheSpamFilterLetsABurstOf25ThenOneEveryFiveMinutes) {
    EventCorrelator correlator = NewCorrelator();
    int passed = 0;
    for (int i = 0; i < 100; ++i)
        passed += correlator.Correlate(NewEvent("web", "Created", "same")).skip ? 0 : 1;
    EXPECT_EQ(passed, 25);
    EXPECT_FALSE(correlator.Correlate(NewEvent("db", "Created", "same")).skip) << "another object has its own budget";
    now_ += 299s;
    EXPECT_TRUE(correlator.Correlate(NewEvent("web", "Created", "same")).skip);
    now_ += 2s;
    const CorrelateResult refilled = correlator.Correlate(NewEvent("web", "Created", "same"));
    EXPECT_FALSE(refilled.skip);
    EXPECT_EQ(refilled.event.Count(), 102) << "filtered events still count, as in client-go";
}

TEST_F(EventCorrelatorTest, KeysTellFieldsApart) {
    api::Event a = NewEvent("web", "Created", "m");
    api::Event b = NewEvent("web", "Created", "m");
    EXPECT_EQ(EventKey(a), EventKey(b));
    b.SetMessage("other");
    EXPECT_NE(EventKey(a), EventKey(b));
    EXPECT_EQ(AggregateKey(a), AggregateKey(b));
    b.SetReason("Deleted");
    EXPECT_NE(AggregateKey(a), AggregateKey(b));
    EXPECT_EQ(SpamKey(a), SpamKey(b));
}

}  // namespace
}  // namespace ctrl::record
