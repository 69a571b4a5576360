#include "ctrl/server/health_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>

namespace ctrl::server {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

ServerRequest WithQuery(std::string query) {
    ServerRequest request;
    request.method = "GET";
    request.query = std::move(query);
    return request;
}

TEST(HealthChecksTest, WithoutChecksPingIsTheOneCheck) {
    HealthChecks checks;
    ServerResponse plain = checks.Serve("", WithQuery(""));
    EXPECT_EQ(plain.status, 200);
    EXPECT_EQ(plain.body, "ok");
    ServerResponse verbose = checks.Serve("", WithQuery("verbose"));
    EXPECT_EQ(verbose.status, 200);
    EXPECT_EQ(verbose.body, "[+]ping ok\nhealthz check passed\n");
    EXPECT_EQ(checks.Serve("/ping", WithQuery("")).body, "ok");
}

TEST(HealthChecksTest, AllPassingIsOkAndVerboseListsThemSorted) {
    HealthChecks checks;
    ASSERT_TRUE(checks.Add("zeta", [] { return OkStatus(); }).Ok());
    ASSERT_TRUE(checks.Add("alpha", Ping).Ok());
    EXPECT_EQ(checks.Serve("", WithQuery("")).body, "ok");
    EXPECT_EQ(checks.Serve("", WithQuery("verbose")).body, "[+]alpha ok\n[+]zeta ok\nhealthz check passed\n");
}

TEST(HealthChecksTest, APassingCheckShowsItsDetailWhenItSaysSomething) {
    HealthChecks checks;
    std::atomic<bool> degraded{false};
    ASSERT_TRUE(
        checks.Add("mode", Ping, [&degraded] { return degraded ? std::string("running without X") : ""; }).Ok());
    EXPECT_EQ(checks.Serve("", WithQuery("verbose")).body, "[+]mode ok\nhealthz check passed\n");
    EXPECT_EQ(checks.Serve("/mode", WithQuery("")).body, "ok");
    degraded = true;
    EXPECT_EQ(checks.Serve("", WithQuery("")).body, "ok");
    EXPECT_EQ(checks.Serve("", WithQuery("verbose")).body, "[+]mode ok: running without X\nhealthz check passed\n");
    ServerResponse one = checks.Serve("/mode", WithQuery(""));
    EXPECT_EQ(one.status, 200);
    EXPECT_EQ(one.body, "ok: running without X");
}

TEST(HealthChecksTest, AFailingCheckIs500AndAlwaysVerboseWithTheReasonWithheld) {
    HealthChecks checks;
    ASSERT_TRUE(checks.Add("ping", Ping).Ok());
    ASSERT_TRUE(
        checks.Add("informers", [] { return UnavailableError("secret-detail: cache for pods not synced"); }).Ok());
    ServerResponse response = checks.Serve("", WithQuery(""));
    EXPECT_EQ(response.status, 500);
    EXPECT_EQ(response.body, "[-]informers failed: reason withheld\n[+]ping ok\nhealthz check failed\n");
    EXPECT_THAT(checks.Serve("", WithQuery("verbose")).body, Not(HasSubstr("secret-detail")));
    // The check's own endpoint says why, as controller-runtime's CheckHandler does.
    ServerResponse one = checks.Serve("/informers", WithQuery(""));
    EXPECT_EQ(one.status, 500);
    EXPECT_THAT(one.body, HasSubstr("internal server error: "));
    EXPECT_THAT(one.body, HasSubstr("cache for pods not synced"));
}

TEST(HealthChecksTest, ExcludedChecksAreSkippedAndUnknownExcludesWarned) {
    HealthChecks checks;
    std::atomic<int> runs = 0;
    ASSERT_TRUE(checks.Add("ping", Ping).Ok());
    ASSERT_TRUE(checks
                    .Add("broken",
                         [&] {
                             ++runs;
                             return InternalError("no");
                         })
                    .Ok());
    ASSERT_TRUE(checks.Add("other", Ping).Ok());
    ServerResponse response = checks.Serve("", WithQuery("verbose&exclude=broken&exclude=nope"));
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body,
              "[+]broken excluded: ok\n[+]other ok\n[+]ping ok\n"
              "warn: some health checks cannot be excluded: no matches for \"nope\"\nhealthz check passed\n");
    EXPECT_EQ(runs, 0);
    EXPECT_EQ(checks.Serve("", WithQuery("exclude=broken")).body, "ok");
    EXPECT_EQ(checks.Serve("", WithQuery("exclude=other")).status, 500);
}

TEST(HealthChecksTest, OneCheckByNameAndUnknownNamesAre404) {
    HealthChecks checks;
    ASSERT_TRUE(checks.Add("informers", Ping).Ok());
    EXPECT_EQ(checks.Serve("/informers", WithQuery("")).status, 200);
    EXPECT_EQ(checks.Serve("/informers/", WithQuery("")).status, 200);
    EXPECT_EQ(checks.Serve("/", WithQuery("")).body, "ok");  // "/readyz/" is the aggregate
    EXPECT_EQ(checks.Serve("/nope", WithQuery("")).status, 404);
    EXPECT_EQ(checks.Serve("/ping", WithQuery("")).status, 404);  // ping is implicit only without checks
}

TEST(HealthChecksTest, AddRejectsDuplicatesAndBadNames) {
    HealthChecks checks;
    ASSERT_TRUE(checks.Add("a", Ping).Ok());
    EXPECT_EQ(checks.Add("a", Ping).Code(), StatusCode::kAlreadyExists);
    EXPECT_EQ(checks.Add("", Ping).Code(), StatusCode::kBadRequest);
    EXPECT_EQ(checks.Add("a/b", Ping).Code(), StatusCode::kBadRequest);
    EXPECT_EQ(checks.Add("c", nullptr).Code(), StatusCode::kBadRequest);
}

TEST(HealthChecksTest, ACheckThatThrowsFails) {
    HealthChecks checks;
    ASSERT_TRUE(checks.Add("throws", []() -> Status { throw std::runtime_error("boom"); }).Ok());
    EXPECT_EQ(checks.Serve("", WithQuery("")).status, 500);
}

TEST(HealthChecksTest, ChecksAddedLaterAreServedByCopies) {
    HealthChecks checks;
    HealthChecks copy = checks;  // what Register hands the server shares the checks
    ASSERT_TRUE(checks.Add("late", [] { return UnavailableError("not yet"); }).Ok());
    EXPECT_EQ(copy.Serve("", WithQuery("")).status, 500);
}

}  // namespace
}  // namespace ctrl::server
