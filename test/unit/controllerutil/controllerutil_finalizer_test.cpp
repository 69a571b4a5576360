#include "ctrl/controllerutil/finalizer.hpp"

#include <gtest/gtest.h>

#include "ctrl/api/config_map.hpp"

namespace ctrl::controllerutil {
namespace {

TEST(FinalizerTest, AddSaysWhetherItAddedAndKeepsOneCopy) {
    api::ConfigMap cm;
    EXPECT_FALSE(ContainsFinalizer(cm, "example.com/cleanup"));
    EXPECT_TRUE(AddFinalizer(cm, "example.com/cleanup"));
    EXPECT_TRUE(ContainsFinalizer(cm, "example.com/cleanup"));
    EXPECT_FALSE(AddFinalizer(cm, "example.com/cleanup"));
    EXPECT_TRUE(AddFinalizer(cm, "example.com/other"));
    EXPECT_EQ(cm.Finalizers(), (std::vector<std::string>{"example.com/cleanup", "example.com/other"}));
}

TEST(FinalizerTest, RemoveSaysWhetherItRemovedAndDropsEveryCopy) {
    api::ConfigMap cm;
    cm.SetFinalizers({"a", "b", "a"});
    EXPECT_FALSE(RemoveFinalizer(cm, "c"));
    EXPECT_TRUE(RemoveFinalizer(cm, "a"));
    EXPECT_EQ(cm.Finalizers(), std::vector<std::string>{"b"});
    EXPECT_FALSE(ContainsFinalizer(cm, "a"));
    EXPECT_TRUE(RemoveFinalizer(cm, "b"));
    EXPECT_FALSE(cm.HasNestedField({"metadata", "finalizers"})) << "the last one takes the field with it";
    EXPECT_FALSE(RemoveFinalizer(cm, "b"));
}

}  // namespace
}  // namespace ctrl::controllerutil
