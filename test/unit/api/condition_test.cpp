#include "ctrl/api/condition.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace ctrl::api {
namespace {

using namespace std::chrono_literals;

const Timestamp kT0 = Timestamp(std::chrono::seconds(1'700'000'000));

Condition Ready(std::string status, std::string reason) {
    Condition condition;
    condition.type = "Ready";
    condition.status = std::move(status);
    condition.reason = std::move(reason);
    condition.message = "m";
    return condition;
}

TEST(SetStatusConditionTest, AddsANewTypeWithNowAsItsTransitionTime) {
    std::vector<Condition> conditions;
    EXPECT_TRUE(SetStatusCondition(conditions, Ready("True", "Valid"), kT0 + 1500ms));
    ASSERT_EQ(conditions.size(), 1u);
    EXPECT_EQ(conditions[0].last_transition_time, kT0 + 1s) << "truncated to seconds";
}

TEST(SetStatusConditionTest, KeepsTheTransitionTimeWhileTheStatusStays) {
    std::vector<Condition> conditions;
    SetStatusCondition(conditions, Ready("False", "NoSelector"), kT0);
    EXPECT_FALSE(SetStatusCondition(conditions, Ready("False", "NoSelector"), kT0 + 10s)) << "nothing changed";
    EXPECT_TRUE(SetStatusCondition(conditions, Ready("False", "NoGroupIds"), kT0 + 20s));
    EXPECT_EQ(conditions[0].reason, "NoGroupIds");
    EXPECT_EQ(conditions[0].last_transition_time, kT0) << "the status did not change";
    EXPECT_TRUE(SetStatusCondition(conditions, Ready("True", "Valid"), kT0 + 30s));
    EXPECT_EQ(conditions[0].last_transition_time, kT0 + 30s);
    EXPECT_EQ(conditions.size(), 1u);
}

TEST(SetStatusConditionTest, ReplacesOnlyTheEntryOfItsType) {
    std::vector<Condition> conditions;
    Condition other = Ready("True", "X");
    other.type = "Synced";
    SetStatusCondition(conditions, other, kT0);
    SetStatusCondition(conditions, Ready("True", "Valid"), kT0);
    SetStatusCondition(conditions, Ready("False", "NoSelector"), kT0 + 5s);
    ASSERT_EQ(conditions.size(), 2u);
    EXPECT_EQ(conditions[0].type, "Synced");
    EXPECT_EQ(conditions[1].status, "False");
}

TEST(WriteConditionsTest, RoundTripsThroughReadConditions) {
    std::vector<Condition> conditions;
    Condition ready = Ready("False", "InvalidSelector");
    ready.observed_generation = 3;
    SetStatusCondition(conditions, ready, kT0);
    Object object;
    ASSERT_TRUE(object.SetNestedInt({"status", "matchedPods"}, 2).Ok());
    ASSERT_TRUE(WriteConditions(object, {"status", "conditions"}, conditions).Ok());
    EXPECT_EQ(ReadConditions(object, {"status", "conditions"}), conditions);
    EXPECT_EQ(object.NestedInt({"status", "matchedPods"}).Value(), 2) << "the rest of status stays";
    EXPECT_NE(object.ToJson().find("\"lastTransitionTime\":\"2023-11-14T22:13:20Z\""), std::string::npos)
        << object.ToJson();
}

}  // namespace
}  // namespace ctrl::api
