#include "ctrl/api/timestamp.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace ctrl::api {
namespace {

using namespace std::chrono_literals;

Timestamp Utc(int y, unsigned m, unsigned d, int hh = 0, int mm = 0, int ss = 0) {
    return std::chrono::sys_days(std::chrono::year(y) / std::chrono::month(m) / std::chrono::day(d)) +
           std::chrono::hours(hh) + std::chrono::minutes(mm) + std::chrono::seconds(ss);
}

TEST(Rfc3339Test, ParsesUtcAndOffsets) {
    EXPECT_EQ(ParseRfc3339("2024-05-01T10:00:00Z"), Utc(2024, 5, 1, 10));
    EXPECT_EQ(ParseRfc3339("2024-05-01t10:00:00z"), Utc(2024, 5, 1, 10));
    EXPECT_EQ(ParseRfc3339("2024-05-01T12:30:00+02:30"), Utc(2024, 5, 1, 10));
    EXPECT_EQ(ParseRfc3339("2024-04-30T23:00:00-11:00"), Utc(2024, 5, 1, 10));
    EXPECT_EQ(ParseRfc3339("1969-12-31T23:59:59Z"), Utc(1969, 12, 31, 23, 59, 59));
    EXPECT_EQ(ParseRfc3339("2024-02-29T00:00:00Z"), Utc(2024, 2, 29));
}

TEST(Rfc3339Test, ParsesFractions) {
    EXPECT_EQ(ParseRfc3339("2024-05-01T10:00:00.5Z"), Utc(2024, 5, 1, 10) + 500ms);
    EXPECT_EQ(ParseRfc3339("2024-05-01T10:00:00.123456Z"), Utc(2024, 5, 1, 10) + 123456us);
    EXPECT_EQ(ParseRfc3339("2024-05-01T10:00:00.123456789Z"), Utc(2024, 5, 1, 10) + 123456789ns);
    EXPECT_EQ(ParseRfc3339("2024-05-01T10:00:00.000001+01:00"), Utc(2024, 5, 1, 9) + 1us);
}

TEST(Rfc3339Test, RefusesMalformedText) {
    for (std::string_view text :
         {"", "2024-05-01", "2024-05-01T10:00:00", "2024-05-01 10:00:00Z", "2024-5-01T10:00:00Z",
          "2024-05-01T10:00:00.Z", "2024-05-01T10:00:00.1234567890Z", "2024-05-01T10:00:00+0200",
          "2024-05-01T10:00:00Zjunk", "2024-13-01T10:00:00Z", "2023-02-29T10:00:00Z", "2024-05-01T24:00:00Z",
          "2024-05-01T10:60:00Z", "2024-05-01T10:00:60Z", "2024-05-01T10:00:00+24:00", "yesterday"}) {
        EXPECT_EQ(ParseRfc3339(text), std::nullopt) << text;
    }
}

TEST(Rfc3339Test, FormatsTimeAndMicroTime) {
    const Timestamp t = Utc(2024, 5, 1, 9, 5, 7) + 123456789ns;
    EXPECT_EQ(FormatRfc3339(t), "2024-05-01T09:05:07Z");
    EXPECT_EQ(FormatRfc3339Micro(t), "2024-05-01T09:05:07.123456Z");
    EXPECT_EQ(FormatRfc3339Micro(Utc(2024, 5, 1)), "2024-05-01T00:00:00.000000Z");
    EXPECT_EQ(FormatRfc3339(Utc(1969, 12, 31, 23, 59, 59) + 500ms), "1969-12-31T23:59:59Z");
    EXPECT_EQ(FormatRfc3339Micro(Utc(1969, 12, 31, 23, 59, 59) + 500ms), "1969-12-31T23:59:59.500000Z");
}

TEST(Rfc3339Test, RoundTrips) {
    const Timestamp t = Utc(2031, 12, 31, 23, 59, 58) + 999999us;
    EXPECT_EQ(ParseRfc3339(FormatRfc3339Micro(t)), t);
    EXPECT_EQ(ParseRfc3339(FormatRfc3339(t)), Utc(2031, 12, 31, 23, 59, 58));
}

}  // namespace
}  // namespace ctrl::api
