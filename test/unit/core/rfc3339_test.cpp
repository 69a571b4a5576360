// ParseRfc3339 (ctrl/core/rfc3339.hpp): the one RFC 3339 parser, under the exec credential's
// expirationTimestamp (rest) and the typed views' metav1.Time (api).
#include "ctrl/core/rfc3339.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <string_view>

namespace ctrl {
namespace {

using namespace std::chrono_literals;
using Time = std::chrono::system_clock::time_point;

Time Utc(int y, unsigned m, unsigned d, int hh = 0, int mm = 0, int ss = 0) {
    return std::chrono::sys_days(std::chrono::year(y) / std::chrono::month(m) / std::chrono::day(d)) +
           std::chrono::hours(hh) + std::chrono::minutes(mm) + std::chrono::seconds(ss);
}

// The parsed time, or the epoch when refused (the failing expectation shows the text).
Time Parsed(std::string_view text) {
    StatusOr<Time> parsed = ParseRfc3339(text);
    EXPECT_TRUE(parsed.Ok()) << text << ": " << parsed.GetStatus();
    return parsed.Ok() ? *parsed : Time();
}

TEST(Rfc3339Test, ParsesUtcAndOffsets) {
    EXPECT_EQ(Parsed("2024-05-01T10:00:00Z"), Utc(2024, 5, 1, 10));
    EXPECT_EQ(
        std::chrono::duration_cast<std::chrono::seconds>(Parsed("2024-05-01T10:00:00Z").time_since_epoch()).count(),
        1714557600);
    EXPECT_EQ(Parsed("2024-05-01t10:00:00z"), Utc(2024, 5, 1, 10));
    EXPECT_EQ(Parsed("2024-05-01T12:30:00+02:30"), Utc(2024, 5, 1, 10));
    EXPECT_EQ(Parsed("2024-04-30T23:00:00-11:00"), Utc(2024, 5, 1, 10));
    EXPECT_EQ(Parsed("2024-05-01T10:00:00-00:00"), Utc(2024, 5, 1, 10));
    EXPECT_EQ(Parsed("1969-12-31T23:59:59Z"), Utc(1969, 12, 31, 23, 59, 59));
    EXPECT_EQ(Parsed("2024-02-29T00:00:00Z"), Utc(2024, 2, 29));
}

TEST(Rfc3339Test, ParsesFractions) {
    EXPECT_EQ(Parsed("2024-05-01T10:00:00.5Z"), Utc(2024, 5, 1, 10) + 500ms);
    EXPECT_EQ(Parsed("2024-05-01T10:00:00.123456Z"), Utc(2024, 5, 1, 10) + 123456us);
    EXPECT_EQ(Parsed("2024-05-01T10:00:00.123456789Z"), Utc(2024, 5, 1, 10) + 123456789ns);
    EXPECT_EQ(Parsed("2024-05-01T10:00:00.000001+01:00"), Utc(2024, 5, 1, 9) + 1us);
    EXPECT_EQ(Parsed("2024-05-01T09:59:59.5-00:00") + 500ms, Utc(2024, 5, 1, 10));
}

TEST(Rfc3339Test, RefusesMalformedText) {
    for (std::string_view text :
         {"", "2024-05-01", "2024-05-01T10:00:00", "2024-05-01 10:00:00Z", "2024-5-01T10:00:00Z",
          "2024-05-01T10:00:00.Z", "2024-05-01T10:00:00.1234567890Z", "2024-05-01T10:00:00+0200",
          "2024-05-01T10:00:00Zjunk", "2024-13-01T10:00:00Z", "2023-02-29T10:00:00Z", "2024-05-01T24:00:00Z",
          "2024-05-01T10:60:00Z", "2024-05-01T10:00:60Z", "2024-05-01T10:00:00+24:00", "yesterday"}) {
        StatusOr<Time> parsed = ParseRfc3339(text);
        ASSERT_FALSE(parsed.Ok()) << text;
        EXPECT_TRUE(IsBadRequest(parsed.GetStatus())) << text;
        EXPECT_EQ(parsed.GetStatus().Message(), "invalid RFC 3339 time \"" + std::string(text) + "\"");
    }
}

TEST(Rfc3339Test, TimesBeyondTheClocksRangeAreRefusedNotOverflowed) {
    EXPECT_TRUE(ParseRfc3339("2262-01-01T00:00:00Z").Ok());
    EXPECT_TRUE(ParseRfc3339("1678-01-01T00:00:00Z").Ok());
    const auto far = ParseRfc3339("4052-12-01T00:00:00Z");
    ASSERT_FALSE(far.Ok());
    EXPECT_TRUE(IsBadRequest(far.GetStatus()));
    EXPECT_THAT(far.GetStatus().Message(), ::testing::HasSubstr("out of the supported range"));
    EXPECT_FALSE(ParseRfc3339("1000-01-01T00:00:00Z").Ok());
    EXPECT_FALSE(ParseRfc3339("9999-12-31T23:59:59.999999999-23:59").Ok());
}

}  // namespace
}  // namespace ctrl
