// Expectations: counts of creations and deletions a controller waits to see, met by observations
// (by owner key or through a child's controller reference), and met anyway once they time out.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "ctrl/controllerutil/expectations.hpp"

namespace ctrl::controllerutil {
namespace {

using namespace std::chrono_literals;

Object Child(std::string_view owner, bool controller) {
    Object child;
    child.SetNamespace("ns");
    child.SetName("child");
    child.SetOwnerReferences({OwnerReference{"v1", "ConfigMap", std::string(owner), "uid-1", controller, {}}});
    return child;
}

TEST(ExpectationsTest, AnOwnerWithoutExpectationsIsSatisfied) {
    Expectations expectations;
    EXPECT_TRUE(expectations.Satisfied("ns/x"));
    EXPECT_EQ(expectations.Remaining("ns/x"), 0ms);
    expectations.CreationObserved("ns/x");  // nothing expected: nothing changes
    EXPECT_TRUE(expectations.Satisfied("ns/x"));
}

TEST(ExpectationsTest, CreationsAndDeletionsAreMetByObservations) {
    Expectations expectations;
    expectations.ExpectCreations("ns/x", 2);
    EXPECT_FALSE(expectations.Satisfied("ns/x"));
    EXPECT_GT(expectations.Remaining("ns/x"), 4min);
    expectations.CreationObserved("ns/x");
    EXPECT_FALSE(expectations.Satisfied("ns/x"));
    expectations.ObserveOwned(Child("x", /*controller=*/true), /*deleted=*/false);
    EXPECT_TRUE(expectations.Satisfied("ns/x"));

    expectations.ExpectDeletions("ns/x", 1);
    expectations.ObserveOwned(Child("x", /*controller=*/false), true);  // not its controller
    expectations.CreationObserved("ns/x");                              // not a deletion
    EXPECT_FALSE(expectations.Satisfied("ns/x"));
    expectations.DeletionObserved("ns/x");
    EXPECT_TRUE(expectations.Satisfied("ns/x"));

    expectations.RaiseExpectations("ns/x", 1, 1);
    expectations.CreationObserved("ns/x");
    EXPECT_FALSE(expectations.Satisfied("ns/x"));
    expectations.Forget("ns/x");
    EXPECT_TRUE(expectations.Satisfied("ns/x"));
}

TEST(ExpectationsTest, AnExpectationNotMetInTimeCountsAsMet) {
    Expectations expectations(50ms);
    expectations.ExpectCreations("ns/x", 1);
    EXPECT_FALSE(expectations.Satisfied("ns/x"));
    EXPECT_LE(expectations.Remaining("ns/x"), 50ms);
    std::this_thread::sleep_for(60ms);
    EXPECT_TRUE(expectations.Satisfied("ns/x"));
    EXPECT_EQ(expectations.Remaining("ns/x"), 0ms);
}

}  // namespace
}  // namespace ctrl::controllerutil
