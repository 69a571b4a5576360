#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::test {

// The content of a file in test/unit/core/testdata ("" when missing: the test then fails).
inline std::string ReadTestdata(const std::string& name) {
    std::ifstream in(::ctrl::testing::RepoPath(CTRL_TESTDATA_DIR) + "/" + name, std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    EXPECT_FALSE(content.str().empty()) << "testdata " << name << " is missing or empty";
    return content.str();
}

// T::Parse(json), failing the test (and returning an empty T) on error.
template <typename T>
T MustParse(std::string_view json) {
    StatusOr<T> parsed = T::Parse(json);
    EXPECT_TRUE(parsed.Ok()) << parsed.GetStatus();
    return parsed.Ok() ? std::move(parsed).Value() : T();
}

}  // namespace ctrl::test
