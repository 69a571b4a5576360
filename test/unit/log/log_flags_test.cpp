#include "ctrl/log/log_flags.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "ctrl/log/log.hpp"

namespace ctrl::log {
namespace {

// argv as ParseLogFlags gets it, and what is left of it after.
struct Args {
    explicit Args(std::vector<std::string> args) : storage(std::move(args)) {
        for (std::string& arg : storage)
            argv.push_back(arg.data());
        argc = static_cast<int>(argv.size());
    }
    std::vector<std::string> Left() const { return {argv.begin(), argv.begin() + argc}; }

    std::vector<std::string> storage;
    std::vector<char*> argv;
    int argc = 0;
};

TEST(LogFlagsTest, TakesTheLoggingFlagsOutAndLeavesTheRest) {
    Args args({"prog", "--kubeconfig", "/k", "-v", "4", "--log-format=json", "pos", "--", "-v", "9"});
    StatusOr<Options> options = ParseLogFlags(args.argc, args.argv.data());
    ASSERT_TRUE(options.Ok()) << options.GetStatus();
    EXPECT_EQ(options->verbosity, 4);
    EXPECT_EQ(options->format, Options::Format::kJson);
    EXPECT_EQ(args.Left(), (std::vector<std::string>{"prog", "--kubeconfig", "/k", "pos", "--", "-v", "9"}));
}

TEST(LogFlagsTest, EverySpellingOfTheLevel) {
    const std::vector<std::pair<std::vector<std::string>, int>> cases = {
        {{"p", "--v=6"}, 6},
        {{"p", "-v=2"}, 2},
        {{"p", "--v", "3"}, 3},
        {{"p", "--zap-log-level=debug"}, 1},
        {{"p", "--zap-log-level", "info"}, 0},
        {{"p", "--zap-log-level=error"}, -1},
        {{"p", "--zap-log-level=5"}, 5},
    };
    for (const auto& [argv, level] : cases) {
        Args args(argv);
        StatusOr<Options> options = ParseLogFlags(args.argc, args.argv.data());
        ASSERT_TRUE(options.Ok()) << argv[1] << ": " << options.GetStatus();
        EXPECT_EQ(options->verbosity, level) << argv[1];
        EXPECT_EQ(args.argc, 1) << argv[1];
    }
}

TEST(LogFlagsTest, BadValuesNameTheFlag) {
    for (const std::vector<std::string>& argv : std::vector<std::vector<std::string>>{{"p", "-v", "x"},
                                                                                      {"p", "--v=-2"},
                                                                                      {"p", "--log-format=xml"},
                                                                                      {"p", "--zap-log-level=loud"},
                                                                                      {"p", "-v"}}) {
        Args args(argv);
        StatusOr<Options> options = ParseLogFlags(args.argc, args.argv.data());
        ASSERT_FALSE(options.Ok()) << argv.back();
        EXPECT_TRUE(IsBadRequest(options.GetStatus()));
        EXPECT_NE(options.GetStatus().Message().find(argv[1].substr(0, argv[1].find('='))), std::string::npos)
            << options.GetStatus();
    }
}

TEST(LogFlagsTest, ConfigureSetsLevelAndFormat) {
    std::ostringstream out;
    Options options;
    options.verbosity = 2;
    options.format = Options::Format::kJson;
    Configure(options, out);
    Logger().V(2).Info("shown");
    Logger().V(3).Info("hidden");
    EXPECT_TRUE(Logger().Enabled(2));
    EXPECT_FALSE(Logger().V(1).Enabled(2));
    SetSink(nullptr);
    SetVerbosity(0);
    EXPECT_NE(out.str().find("{\"level\":\"debug\",\"v\":2,"), std::string::npos) << out.str();
    EXPECT_EQ(out.str().find("hidden"), std::string::npos);
}

TEST(LogFlagsTest, ErrorLevelKeepsOnlyErrors) {
    std::ostringstream out;
    Options options;
    options.verbosity = -1;
    Configure(options, out);
    Logger().Info("info line");
    Logger().Error(UnavailableError("down"), "error line");
    SetSink(nullptr);
    SetVerbosity(0);
    EXPECT_EQ(out.str().find("info line"), std::string::npos);
    EXPECT_NE(out.str().find("error line"), std::string::npos);
}

}  // namespace
}  // namespace ctrl::log
