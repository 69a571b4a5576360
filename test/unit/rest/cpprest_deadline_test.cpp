// The deadline a cpprestsdk exchange waits for: the earlier of the request timeout and the
// Context's deadline, named for messages. (How it waits is core's Notification, tested there.)

#include "ctrl/rest/internal/cpprest_deadline.hpp"

#include <gtest/gtest.h>

namespace ctrl::rest::internal::cpprest {
namespace {

using namespace std::chrono_literals;

TEST(RequestDeadlineTest, TheEarlierOfTimeoutAndContextWins) {
    EXPECT_FALSE(RequestDeadline(Context::Background(), 0ms).at);

    const Deadline timeout = RequestDeadline(Context::WithTimeout(Context::Background(), 1h), 100ms);
    ASSERT_TRUE(timeout.at);
    EXPECT_EQ(timeout.what, "request timeout of 100 ms");

    const Context short_lived = Context::WithTimeout(Context::Background(), 100ms);
    const Deadline ctx = RequestDeadline(short_lived, 1h);
    ASSERT_TRUE(ctx.at);
    EXPECT_EQ(ctx.what, "context deadline");
    EXPECT_EQ(ctx.at, short_lived.Deadline());
}

}  // namespace
}  // namespace ctrl::rest::internal::cpprest
