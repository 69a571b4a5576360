#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include <gtest/gtest.h>

#include "test/support/repo_path.hpp"

namespace ctrl::rest::testing {

// A directory under /tmp for one test's files, removed with everything in it at the end.
class TempDir {
  public:
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "ctrl-rest-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr)
            ADD_FAILURE() << "mkdtemp failed";
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    // The absolute path of relative (the directory itself when empty).
    std::string Path(const std::string& relative = "") const {
        return relative.empty() ? path_.string() : (path_ / relative).string();
    }

    // Writes contents to relative, creating its directories; returns its absolute path.
    std::string Write(const std::string& relative, const std::string& contents) const {
        const std::filesystem::path file = path_ / relative;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out << contents;
        out.close();
        EXPECT_TRUE(out) << "cannot write " << file;
        return file.string();
    }

  private:
    std::filesystem::path path_;
};

// The directory of the rest layer's test data.
inline std::string TestData(const std::string& relative) {
    return ::ctrl::testing::RepoPath(CTRL_TESTDATA_DIR) + "/" + relative;
}

}  // namespace ctrl::rest::testing
