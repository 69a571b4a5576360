// How Go writes durations, times and Marshaler output (compacted JSON).

#include <gtest/gtest.h>

#include "ctrl/protobuf/internal/go_json.hpp"

namespace ctrl::protobuf::internal {
namespace {

std::string Duration(std::int64_t nanos) {
    std::string out;
    AppendGoDuration(out, nanos);
    return out;
}

std::string Time(std::int64_t seconds, std::int64_t nanos, bool micro) {
    std::string out;
    AppendRfc3339(out, seconds, nanos, micro);
    return out;
}

TEST(GoJsonTest, DurationsAreGosDurationString) {
    EXPECT_EQ(Duration(0), "\"0s\"");
    EXPECT_EQ(Duration(1), "\"1ns\"");
    EXPECT_EQ(Duration(1500), "\"1.5\xC2\xB5s\"");
    EXPECT_EQ(Duration(1'000'000), "\"1ms\"");
    EXPECT_EQ(Duration(2'500'000), "\"2.5ms\"");
    EXPECT_EQ(Duration(1'000'000'000), "\"1s\"");
    EXPECT_EQ(Duration(90'000'000'000), "\"1m30s\"");
    EXPECT_EQ(Duration(3'600'000'000'000), "\"1h0m0s\"");
    EXPECT_EQ(Duration(3'723'500'000'000), "\"1h2m3.5s\"");
    EXPECT_EQ(Duration(-1'500'000'000), "\"-1.5s\"");
    EXPECT_EQ(Duration(INT64_MIN), "\"-2562047h47m16.854775808s\"");
}

TEST(GoJsonTest, TimesAreRfc3339InUtc) {
    EXPECT_EQ(Time(0, 0, false), "\"1970-01-01T00:00:00Z\"");
    EXPECT_EQ(Time(-1, 0, false), "\"1969-12-31T23:59:59Z\"");
    EXPECT_EQ(Time(-62135596800, 0, false), "\"0001-01-01T00:00:00Z\"");
    EXPECT_EQ(Time(253402300799, 0, false), "\"9999-12-31T23:59:59Z\"");
    EXPECT_EQ(Time(1767225600, 1'999'999, true), "\"2026-01-01T00:00:00.001999Z\"");
    EXPECT_EQ(Time(1767225600, -1000, true), "\"2025-12-31T23:59:59.999999Z\"");
}

TEST(GoJsonTest, CompactJsonDropsSpaceAndEscapesAsGo) {
    std::string out;
    ASSERT_TRUE(AppendCompactJson(out, " { \"a\" : [ 1 , -2.5E+3 , \"x\\u00e9<\" ] , \"b\":{ } }\n"));
    EXPECT_EQ(out, R"({"a":[1,-2.5E+3,"x\u00e9\u003c"],"b":{}})");
    out.clear();
    ASSERT_TRUE(AppendCompactJson(out, "[\"& \xe2\x80\xa9 \xe2\x82\xac\"]"));
    EXPECT_EQ(out, "[\"\\u0026 \\u2029 \xe2\x82\xac\"]");
    // encoding/json would copy invalid UTF-8 from a Marshaler; no parser ctrl uses would read it.
    EXPECT_FALSE(AppendCompactJson(out, "[\"\xff\"]"));
    for (const char* bad :
         {"", "{", "{\"a\"}", "[1,]x", "\"\\q\"", "tru", "{\"a\":1}}", "-", "01", "1.", "1e", "1-2", "+1"}) {
        std::string sink = "kept";
        EXPECT_FALSE(AppendCompactJson(sink, bad)) << bad;
        EXPECT_EQ(sink, "kept");
    }
}

TEST(GoJsonTest, Base64IsStandardWithPadding) {
    std::string out;
    AppendBase64(out, "");
    AppendBase64(out, "f");
    AppendBase64(out, "fo");
    AppendBase64(out, "foo");
    AppendBase64(out, std::string("\xff\xfe\xfd\x00", 4));
    EXPECT_EQ(out, R"("""Zg==""Zm8=""Zm9v""//79AA==")");
}

}  // namespace
}  // namespace ctrl::protobuf::internal
