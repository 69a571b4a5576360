#include "ctrl/predicate/predicate.hpp"

#include <gtest/gtest.h>

namespace ctrl::predicate {
namespace {

class Never final : public Predicate {
  public:
    bool Create(const event::CreateEvent&) const override { return false; }
    bool Update(const event::UpdateEvent&) const override { return false; }
    bool Delete(const event::DeleteEvent&) const override { return false; }
    bool Generic(const event::GenericEvent&) const override { return false; }
};

TEST(PassesTest, EmptyListPassesAndOneRefusalRefuses) {
    const event::CreateEvent create(std::make_shared<const Object>());
    EXPECT_TRUE(PassesCreate({}, create));
    const std::vector<PredicatePtr> never{std::make_shared<Never>()};
    EXPECT_FALSE(PassesCreate(never, create));
    EXPECT_FALSE(PassesUpdate(never, event::UpdateEvent()));
    EXPECT_FALSE(PassesDelete(never, event::DeleteEvent()));
    EXPECT_FALSE(PassesGeneric(never, event::GenericEvent()));
}

}  // namespace
}  // namespace ctrl::predicate
