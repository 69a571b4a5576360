#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "ctrl/envtest/binary_dir.hpp"

namespace ctrl::envtest {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// A fake ctrl-setup-envtest cache in a temporary CTRL_ENVTEST_CACHE, with CTRL_ENVTEST_BIN_DIR unset.
class BinaryDirTest : public ::testing::Test {
  protected:
    void SetUp() override {
        cache_ = fs::temp_directory_path() / ("ctrl-envtest-cache-" + std::to_string(::getpid()));
        fs::create_directories(cache_);
        const char* bin_dir = std::getenv("CTRL_ENVTEST_BIN_DIR");
        saved_bin_dir_ = bin_dir == nullptr ? "" : bin_dir;
        ::unsetenv("CTRL_ENVTEST_BIN_DIR");
        ::setenv("CTRL_ENVTEST_CACHE", cache_.c_str(), 1);
    }
    void TearDown() override {
        ::unsetenv("CTRL_ENVTEST_CACHE");
        if (!saved_bin_dir_.empty())
            ::setenv("CTRL_ENVTEST_BIN_DIR", saved_bin_dir_.c_str(), 1);
        fs::remove_all(cache_);
    }
    // What ctrl-setup-envtest leaves for kube-apiserver `version`: both binaries and the stamp.
    fs::path Fill(const std::string& version, const std::string& stamp) {
        fs::path dir = cache_ / version;
        fs::create_directories(dir);
        for (const char* binary : {"kube-apiserver", "etcd"}) {
            std::ofstream(dir / binary) << "#!/bin/sh\n";
            fs::permissions(dir / binary, fs::perms::owner_all);
        }
        std::ofstream(dir / "VERSIONS") << stamp << "\n";
        return dir;
    }
    std::string Stamp(const std::string& version) { return "kube-apiserver=" + version + " etcd=" + Pinned().etcd; }

    fs::path cache_;
    std::string saved_bin_dir_;
};

TEST_F(BinaryDirTest, FindsThePinnedVersionInTheCache) {
    ASSERT_FALSE(Pinned().kube_apiserver.empty());
    const fs::path dir = Fill(Pinned().kube_apiserver, Stamp(Pinned().kube_apiserver));
    auto found = ResolveBinaryDir("", {}, std::chrono::seconds(10));
    ASSERT_TRUE(found.Ok()) << found.GetStatus();
    EXPECT_EQ(*found, dir.string());
}

TEST_F(BinaryDirTest, AnEmptyCacheOrAStaleStampNamesWhatToRun) {
    Fill(Pinned().kube_apiserver, "kube-apiserver=" + Pinned().kube_apiserver + " etcd=v0.0.1");
    auto found = FindCachedBinaryDir();
    EXPECT_TRUE(IsNotFound(found.GetStatus())) << found.GetStatus();
    EXPECT_THAT(found.GetStatus().Message(), HasSubstr((cache_ / Pinned().kube_apiserver).string()));
    EXPECT_THAT(found.GetStatus().Message(), HasSubstr("ctrl-setup-envtest"));
}

TEST_F(BinaryDirTest, AGivenDirectoryWithoutTheBinariesNamesTheMissingOne) {
    auto found = ResolveBinaryDir(cache_.string(), {}, std::chrono::seconds(10));
    EXPECT_TRUE(IsNotFound(found.GetStatus())) << found.GetStatus();
    EXPECT_THAT(found.GetStatus().Message(), HasSubstr("kube-apiserver not found in " + cache_.string()));
    EXPECT_THAT(found.GetStatus().Message(), HasSubstr("ctrl-setup-envtest"));
}

TEST_F(BinaryDirTest, TheSetupCommandsLastLineIsTheDirectory) {
    const fs::path dir = Fill("v1.0.0", "whatever");
    auto found =
        ResolveBinaryDir("", {"/bin/sh", "-c", "echo building; echo " + dir.string()}, std::chrono::seconds(10));
    ASSERT_TRUE(found.Ok()) << found.GetStatus();
    EXPECT_EQ(*found, dir.string());
}

}  // namespace
}  // namespace ctrl::envtest
