#include "ctrl/discovery/internal/version_priority.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ctrl::discovery::internal {
namespace {

TEST(VersionPriorityTest, SortsLikeKubernetes) {
    std::vector<std::string> versions = {"v11alpha2", "foo10", "v10",  "v1",       "v12alpha1",
                                         "v3beta1",   "v2",    "foo1", "v11beta2", "v10beta3"};
    std::sort(versions.begin(), versions.end(),
              [](const std::string& a, const std::string& b) { return PreferredVersion(a, b); });
    EXPECT_EQ(versions, (std::vector<std::string>{"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1",
                                                  "v11alpha2", "foo1", "foo10"}));
}

TEST(VersionPriorityTest, GaBeatsBetaBeatsAlpha) {
    EXPECT_TRUE(PreferredVersion("v1", "v2beta1"));
    EXPECT_TRUE(PreferredVersion("v1beta1", "v1alpha1"));
    EXPECT_FALSE(PreferredVersion("v1alpha1", "v1beta1"));
    EXPECT_FALSE(PreferredVersion("v1", "v1"));
}

}  // namespace
}  // namespace ctrl::discovery::internal
