#include "controllers/podlister/flags.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace ctrl::podlister {
namespace {

using ::testing::HasSubstr;

StatusOr<Flags> Parse(std::vector<const char*> args) {
    args.insert(args.begin(), "podlister");
    return ParseFlags(static_cast<int>(args.size()), args.data());
}

TEST(FlagsTest, Defaults) {
    StatusOr<Flags> flags = Parse({});
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_EQ(flags->kubeconfig, "");
    EXPECT_EQ(flags->context, "");
    EXPECT_EQ(flags->chunk_size, 500);
    EXPECT_EQ(flags->output, OutputFormat::kTable);
    EXPECT_EQ(flags->request_timeout, std::chrono::seconds(20));
    EXPECT_FALSE(flags->no_headers);
    EXPECT_FALSE(flags->help);
}

TEST(FlagsTest, EveryFlagWithSeparateValues) {
    StatusOr<Flags> flags = Parse({"--kubeconfig", "/tmp/kc", "--context", "kind-a", "--chunk-size", "50", "-o", "json",
                                   "--request-timeout", "1m30s", "--no-headers"});
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_EQ(flags->kubeconfig, "/tmp/kc");
    EXPECT_EQ(flags->context, "kind-a");
    EXPECT_EQ(flags->chunk_size, 50);
    EXPECT_EQ(flags->output, OutputFormat::kJson);
    EXPECT_EQ(flags->request_timeout, std::chrono::seconds(90));
    EXPECT_TRUE(flags->no_headers);
}

TEST(FlagsTest, EqualsFormsAndOneDash) {
    StatusOr<Flags> flags =
        Parse({"--kubeconfig=/a b", "-context=c", "-chunk-size=7", "--output=table", "-o=json", "--request-timeout=5"});
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_EQ(flags->kubeconfig, "/a b");
    EXPECT_EQ(flags->context, "c");
    EXPECT_EQ(flags->chunk_size, 7);
    EXPECT_EQ(flags->output, OutputFormat::kJson);  // the last one wins
    EXPECT_EQ(flags->request_timeout, std::chrono::seconds(5));
}

TEST(FlagsTest, LoggingFlags) {
    StatusOr<Flags> flags = Parse({"-v", "6", "--log-format=json"});
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_EQ(flags->log.verbosity, 6);
    EXPECT_EQ(flags->log.format, log::Options::Format::kJson);
    flags = Parse({"--v=2", "--zap-log-level", "error"});
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_EQ(flags->log.verbosity, -1) << "the later flag wins";
    EXPECT_THAT(Parse({"--log-format", "xml"}).GetStatus().Message(), HasSubstr("--log-format"));
    EXPECT_THAT(Usage(), HasSubstr("--log-format"));
}

TEST(FlagsTest, Help) {
    for (const char* arg : {"-h", "--help", "-help"}) {
        StatusOr<Flags> flags = Parse({"--chunk-size", "3", arg});
        ASSERT_TRUE(flags.Ok()) << arg;
        EXPECT_TRUE(flags->help) << arg;
    }
    EXPECT_THAT(Usage(), HasSubstr("--chunk-size N"));
}

TEST(FlagsTest, ChunkSizeMustBePositive) {
    for (const char* bad : {"0", "-5"}) {
        StatusOr<Flags> flags = Parse({"--chunk-size", bad});
        ASSERT_FALSE(flags.Ok()) << bad;
        EXPECT_TRUE(IsBadRequest(flags.GetStatus()));
        EXPECT_THAT(flags.GetStatus().Message(), HasSubstr("--chunk-size must be > 0"));
    }
    for (const char* bad : {"abc", "5x", "", "1.5"}) {
        StatusOr<Flags> flags = Parse({"--chunk-size", bad});
        ASSERT_FALSE(flags.Ok()) << bad;
        EXPECT_THAT(flags.GetStatus().Message(), HasSubstr("is not an integer")) << bad;
    }
}

TEST(FlagsTest, Errors) {
    struct Case {
        std::vector<const char*> args;
        const char* message;
    };
    const std::vector<Case> cases = {
        {{"--verbose"}, "unknown flag \"--verbose\""},
        {{"pods"}, "unexpected argument \"pods\""},
        {{"--kubeconfig"}, "flag --kubeconfig needs a value"},
        {{"--kubeconfig="}, "flag --kubeconfig needs a path"},
        {{"-o", "yaml"}, "unknown format \"yaml\""},
        {{"--request-timeout", "soon"}, "flag --request-timeout: \"soon\" is not a duration"},
        {{"--request-timeout", "0s"}, "--request-timeout must be > 0"},
        {{"--request-timeout", "-3"}, "is not a duration"},
    };
    for (const Case& c : cases) {
        StatusOr<Flags> flags = Parse(c.args);
        ASSERT_FALSE(flags.Ok()) << c.message;
        EXPECT_TRUE(IsBadRequest(flags.GetStatus()));
        EXPECT_THAT(flags.GetStatus().Message(), HasSubstr(c.message));
    }
}

TEST(FlagsTest, Durations) {
    EXPECT_EQ(ParseDuration("30s").Value(), std::chrono::seconds(30));
    EXPECT_EQ(ParseDuration("2m").Value(), std::chrono::minutes(2));
    EXPECT_EQ(ParseDuration("1h2m3s").Value(), std::chrono::seconds(3723));
    EXPECT_EQ(ParseDuration("500ms").Value(), std::chrono::milliseconds(500));
    EXPECT_EQ(ParseDuration("12").Value(), std::chrono::seconds(12));
    EXPECT_FALSE(ParseDuration("").Ok());
    EXPECT_FALSE(ParseDuration("5d").Ok());
    EXPECT_FALSE(ParseDuration("s").Ok());
}

}  // namespace
}  // namespace ctrl::podlister
