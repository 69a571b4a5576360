// The program's failures that need no server: flags, and kubeconfigs that cannot be loaded. Each
// ends with exit code 1 and one line on stderr.

#include "controllers/podlister/app.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ctrl::podlister {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::StartsWith;

struct Outcome {
    int code = -1;
    std::string out;
    std::string err;
};

Outcome RunLister(std::vector<const char*> args) {
    args.insert(args.begin(), "podlister");
    std::ostringstream out;
    std::ostringstream err;
    Outcome outcome;
    outcome.code = RunPodLister(static_cast<int>(args.size()), args.data(), out, err);
    outcome.out = out.str();
    outcome.err = err.str();
    return outcome;
}

// Exit code 1 and exactly one line, "podlister: error: ...", on stderr; nothing on stdout.
void ExpectOneLineError(const Outcome& outcome, const std::string& names) {
    EXPECT_EQ(outcome.code, 1);
    EXPECT_EQ(outcome.out, "");
    EXPECT_THAT(outcome.err, StartsWith("podlister: error: "));
    EXPECT_THAT(outcome.err, EndsWith("\n"));
    EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 1) << outcome.err;
    EXPECT_THAT(outcome.err, HasSubstr(names));
}

class PodListerAppTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("podlister-app-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string Write(const std::string& name, const std::string& content) {
        std::string path = (dir_ / name).string();
        std::ofstream(path) << content;
        return path;
    }
    std::filesystem::path dir_;
};

TEST_F(PodListerAppTest, HelpExitsZero) {
    Outcome outcome = RunLister({"--help"});
    EXPECT_EQ(outcome.code, 0);
    EXPECT_THAT(outcome.out, HasSubstr("Usage: podlister [flags]"));
    EXPECT_EQ(outcome.err, "");
}

TEST_F(PodListerAppTest, BadFlags) {
    ExpectOneLineError(RunLister({"--chunk-size", "0"}), "--chunk-size must be > 0");
    ExpectOneLineError(RunLister({"--bogus"}), "unknown flag \"--bogus\"");
    ExpectOneLineError(RunLister({"-o", "yaml"}), "unknown format \"yaml\"");
}

TEST_F(PodListerAppTest, KubeconfigThatIsNotYaml) {
    const std::string path = Write("broken", "apiVersion: v1\nclusters: [\n  - {name: x\n\tcontexts: ::: }\n");
    Outcome outcome = RunLister({"--kubeconfig", path.c_str()});
    ExpectOneLineError(outcome, path);
}

TEST_F(PodListerAppTest, KubeconfigThatDoesNotExist) {
    const std::string path = (dir_ / "missing").string();
    ExpectOneLineError(RunLister({"--kubeconfig", path.c_str()}), path);
}

TEST_F(PodListerAppTest, UnknownContext) {
    const std::string path = Write("kubeconfig", R"(apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:1"}
users:
- name: u
  user: {token: t}
contexts:
- name: ctx
  context: {cluster: c, user: u}
current-context: ctx
)");
    ExpectOneLineError(RunLister({"--kubeconfig", path.c_str(), "--context", "nope"}), "nope");
}

}  // namespace
}  // namespace ctrl::podlister
