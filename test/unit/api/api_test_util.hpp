#pragma once

// Helpers shared by the api unit tests: testdata files (test/unit/api/testdata) and fixed times.

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "ctrl/api/timestamp.hpp"
#include "ctrl/core/object.hpp"
#include "test/unit/core/testdata.hpp"

namespace ctrl::api::testing {

using ctrl::test::MustParse;
using ctrl::test::ReadTestdata;

// A timestamp from its RFC 3339 text; fails the test when malformed.
inline Timestamp At(std::string_view text) {
    auto time = ParseRfc3339(text);
    EXPECT_TRUE(time.has_value()) << text;
    return time.value_or(Timestamp());
}

// Parse -> ToJson -> Parse gives the same JSON, and the typed object equals the file's JSON.
template <typename T>
void ExpectRoundTrip(const T& typed, std::string_view original_json) {
    auto original = Object::Parse(original_json);
    ASSERT_TRUE(original.Ok()) << original.GetStatus();
    EXPECT_EQ(typed.AsObject(), *original);
    auto reparsed = T::Parse(typed.ToJson());
    ASSERT_TRUE(reparsed.Ok()) << reparsed.GetStatus();
    EXPECT_EQ(reparsed->AsObject(), *original);
}

}  // namespace ctrl::api::testing
