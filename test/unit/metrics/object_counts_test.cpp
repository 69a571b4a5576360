#include "ctrl/metrics/object_counts.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ctrl/metrics/registry.hpp"

namespace ctrl::metrics {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ObjectCountsTest : public ::testing::Test {
  protected:
    Registry registry_;
    ObjectCounts counts_{registry_.AddGauge("pods", "Pods by namespace and phase.", {"namespace", "phase"})};
};

TEST_F(ObjectCountsTest, CountsEachObjectOnceUnderItsLatestLabels) {
    counts_.Set("a/p1", {"a", "Pending"});
    counts_.Set("a/p2", {"a", "Pending"});
    counts_.Set("a/p1", {"a", "Pending"});  // seen again, unchanged
    counts_.Set("b/p3", {"b", "Running"});
    std::string text = registry_.SerializeText();
    EXPECT_THAT(text, HasSubstr("pods{namespace=\"a\",phase=\"Pending\"} 2"));
    EXPECT_THAT(text, HasSubstr("pods{namespace=\"b\",phase=\"Running\"} 1"));

    counts_.Set("a/p1", {"a", "Running"});
    text = registry_.SerializeText();
    EXPECT_THAT(text, HasSubstr("pods{namespace=\"a\",phase=\"Pending\"} 1"));
    EXPECT_THAT(text, HasSubstr("pods{namespace=\"a\",phase=\"Running\"} 1"));
    EXPECT_EQ(counts_.Size(), 3u);
}

TEST_F(ObjectCountsTest, ASeriesThatFallsToZeroIsRemoved) {
    counts_.Set("a/p1", {"a", "Pending"});
    counts_.Set("b/p2", {"b", "Pending"});
    counts_.Remove("a/p1");
    counts_.Remove("a/p1");       // twice: no-op
    counts_.Remove("a/unknown");  // never seen: no-op
    const std::string text = registry_.SerializeText();
    EXPECT_THAT(text, Not(HasSubstr("namespace=\"a\"")));
    EXPECT_THAT(text, HasSubstr("pods{namespace=\"b\",phase=\"Pending\"} 1"));
    EXPECT_EQ(counts_.Size(), 1u);
}

TEST_F(ObjectCountsTest, AnObjectSeenAgainAfterRemovalCountsAgain) {
    counts_.Set("a/p1", {"a", "Pending"});
    counts_.Remove("a/p1");
    counts_.Set("a/p1", {"a", "Succeeded"});
    EXPECT_THAT(registry_.SerializeText(), HasSubstr("pods{namespace=\"a\",phase=\"Succeeded\"} 1"));
}

TEST_F(ObjectCountsTest, WeightZeroKeepsTheSeriesAtZero) {
    counts_.Set("a/valid", {"a", "x"}, 0);
    EXPECT_THAT(registry_.SerializeText(), HasSubstr("pods{namespace=\"a\",phase=\"x\"} 0"));
    counts_.Set("a/invalid", {"a", "x"}, 1);
    EXPECT_THAT(registry_.SerializeText(), HasSubstr("pods{namespace=\"a\",phase=\"x\"} 1"));
    counts_.Set("a/invalid", {"a", "x"}, 0);  // fixed
    EXPECT_THAT(registry_.SerializeText(), HasSubstr("pods{namespace=\"a\",phase=\"x\"} 0"));
    counts_.Remove("a/valid");
    counts_.Remove("a/invalid");
    EXPECT_THAT(registry_.SerializeText(), Not(HasSubstr("namespace=\"a\"")));
}

}  // namespace
}  // namespace ctrl::metrics
