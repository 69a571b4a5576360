#include "ctrl/log/log.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace ctrl::log {
namespace {

// Captures the process sink for one test and restores the default after.
class LogTest : public ::testing::Test {
  protected:
    void SetUp() override { SetSink(NewTextSink(out_)); }
    void TearDown() override {
        SetSink(nullptr);
        SetVerbosity(0);
    }
    std::ostringstream out_;
};

TEST_F(LogTest, TextLineCarriesNameMessageAndPairs) {
    Logger()
        .WithName("cache")
        .WithName("informer")
        .WithValues("gvk", "/v1, Kind=Pod")
        .Info("relisting", "reason", "gone", "pages", 3);
    const std::string line = out_.str();
    EXPECT_EQ(line[0], 'I');
    EXPECT_NE(line.find(" cache.informer] \"relisting\" gvk=\"/v1, Kind=Pod\" reason=\"gone\" pages=3\n"),
              std::string::npos)
        << line;
}

TEST_F(LogTest, VerbosityGatesVLines) {
    const Logger logger = Logger().WithName("t");
    logger.V(2).Info("hidden");
    EXPECT_EQ(out_.str(), "");
    EXPECT_FALSE(logger.V(2).Enabled());
    SetVerbosity(2);
    logger.V(2).Info("shown");
    EXPECT_NE(out_.str().find("\"shown\""), std::string::npos);
    logger.V(1).V(2).Info("deeper");
    EXPECT_EQ(out_.str().find("deeper"), std::string::npos);
}

TEST_F(LogTest, ErrorsAlwaysWrittenWithTheStatus) {
    Logger().V(5).Error(NotFoundError("pods \"x\" not found"), "get failed", "name", "x");
    const std::string line = out_.str();
    EXPECT_EQ(line[0], 'E');
    EXPECT_NE(line.find("err=\"NotFound: pods \\\"x\\\" not found\""), std::string::npos) << line;
}

TEST_F(LogTest, JsonSinkWritesOneObjectPerLine) {
    std::ostringstream json;
    SetSink(NewJsonSink(json));
    Logger().WithName("mgr").Info("started", "ok", true, "took", std::chrono::milliseconds(1500), "token",
                                  Redacted{"bearer"});
    const std::string line = json.str();
    EXPECT_EQ(line.rfind("{\"level\":\"info\",\"ts\":\"", 0), 0u) << line;
    EXPECT_NE(line.find(",\"logger\":\"mgr\",\"msg\":\"started\",\"ok\":true,\"took\":\"1.5s\","
                        "\"token\":\"<redacted bearer>\"}\n"),
              std::string::npos)
        << line;
}

TEST_F(LogTest, ContextCarriesItsLogger) {
    const Context base = Context::Background();
    EXPECT_TRUE(FromContext(base).Enabled());
    const Context ctx = IntoContext(base, Logger().WithName("reconciler").WithValues("name", "web-0"));
    const Context child = Context::WithCancel(ctx);
    FromContext(child).Info("reconciling");
    EXPECT_NE(out_.str().find("reconciler] \"reconciling\" name=\"web-0\""), std::string::npos) << out_.str();
}

}  // namespace
}  // namespace ctrl::log
