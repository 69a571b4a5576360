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

// The parser itself is ctrl::ParseRfc3339 (test/unit/core/rfc3339_test.cpp); api's forwards it.
TEST(Rfc3339Test, ParsesThroughTheCoreParser) {
    EXPECT_EQ(ParseRfc3339("2024-05-01T12:30:00.5+02:30"), Utc(2024, 5, 1, 10) + 500ms);
    EXPECT_EQ(ParseRfc3339("2024-05-01T10:00:60Z"), std::nullopt);
    EXPECT_EQ(ParseRfc3339("4052-12-01T00:00:00Z"), std::nullopt) << "beyond the clock: refused, not overflowed";
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
