#include "ctrl/core/status.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ctrl/core/status_or.hpp"

namespace ctrl {
namespace {

using ::testing::HasSubstr;

TEST(StatusTest, DefaultIsOkAndPrintsOk) {
    Status status;
    EXPECT_TRUE(status.Ok());
    EXPECT_EQ(status.Code(), StatusCode::kOk);
    EXPECT_EQ(status.ToString(), "OK");
    EXPECT_EQ(status.HttpCode(), 0);
    EXPECT_TRUE(status.Message().empty());
    EXPECT_TRUE(status.Causes().empty());
}

TEST(StatusTest, OkCodeWithMessageIsStillOk) {
    Status status(StatusCode::kOk, "ignored");
    EXPECT_TRUE(status.Ok());
    EXPECT_EQ(status, OkStatus());
}

TEST(StatusTest, CarriesServerDetails) {
    Status status = TooManyRequestsError("slow down", std::chrono::seconds(3)).WithHttpCode(429).WithReason("TooMany");
    EXPECT_FALSE(status.Ok());
    EXPECT_TRUE(IsTooManyRequests(status));
    EXPECT_EQ(status.HttpCode(), 429);
    EXPECT_EQ(status.Reason(), "TooMany");
    ASSERT_TRUE(status.RetryAfter().has_value());
    EXPECT_EQ(status.RetryAfter()->count(), 3);
    EXPECT_EQ(status.ToString(), "TooManyRequests: slow down (HTTP 429) (retry after 3s)");
}

TEST(StatusTest, InvalidListsCausesInItsText) {
    Status status = InvalidError("Pod \"x\" is invalid", {{"FieldValueRequired", "Required value", "spec.containers"}})
                        .WithHttpCode(422);
    EXPECT_TRUE(IsInvalid(status));
    ASSERT_EQ(status.Causes().size(), 1u);
    EXPECT_EQ(status.Causes()[0].field, "spec.containers");
    EXPECT_EQ(status.ToString(), "Invalid: Pod \"x\" is invalid; spec.containers: Required value (HTTP 422)");
}

TEST(StatusTest, WithersCopyOnWriteAndLeaveTheOriginalAlone) {
    Status original = NotFoundError("gone");
    Status annotated = original.Annotate("getting pod default/x").WithHttpCode(404);
    EXPECT_EQ(original.Message(), "gone");
    EXPECT_EQ(original.HttpCode(), 0);
    EXPECT_EQ(annotated.Message(), "getting pod default/x: gone");
    EXPECT_EQ(annotated.HttpCode(), 404);
    EXPECT_NE(original, annotated);
}

TEST(StatusTest, AnnotateAndWithersKeepOkOk) {
    EXPECT_TRUE(OkStatus().Annotate("context").Ok());
    EXPECT_TRUE(OkStatus().WithHttpCode(500).Ok());
    EXPECT_TRUE(Terminal(OkStatus()).Ok());
}

TEST(StatusTest, PredicatesMatchExactlyTheirCode) {
    const std::vector<std::pair<Status, bool (*)(const Status&)>> cases = {
        {NotFoundError("x"), IsNotFound},   {AlreadyExistsError("x"), IsAlreadyExists},
        {ConflictError("x"), IsConflict},   {GoneError("x"), IsGone},
        {ForbiddenError("x"), IsForbidden}, {UnauthorizedError("x"), IsUnauthorized},
        {TimeoutError("x"), IsTimeout},     {UnavailableError("x"), IsUnavailable},
        {NoMatchError("x"), IsNoMatch},     {InternalError("x"), IsInternal},
        {CancelledError("x"), IsCancelled}, {BadRequestError("x"), IsBadRequest},
        {InvalidError("x"), IsInvalid},     {TooManyRequestsError("x"), IsTooManyRequests},
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
        for (std::size_t j = 0; j < cases.size(); ++j) {
            EXPECT_EQ(cases[j].second(cases[i].first), i == j) << cases[i].first << " vs predicate " << j;
        }
    }
}

TEST(StatusTest, IgnoreNotFoundOnlyIgnoresNotFound) {
    EXPECT_TRUE(IgnoreNotFound(NotFoundError("x")).Ok());
    EXPECT_TRUE(IgnoreNotFound(OkStatus()).Ok());
    EXPECT_TRUE(IsNoMatch(IgnoreNotFound(NoMatchError("kind"))));
}

TEST(StatusTest, TerminalMarksWithoutChangingTheCode) {
    Status status = Terminal(InvalidError("bad spec"));
    EXPECT_TRUE(IsTerminal(status));
    EXPECT_TRUE(IsInvalid(status));
    EXPECT_THAT(status.ToString(), HasSubstr("(terminal)"));
    EXPECT_FALSE(IsTerminal(InvalidError("bad spec")));
}

TEST(StatusTest, CodeNamesAreKubernetesReasons) {
    EXPECT_EQ(StatusCodeName(StatusCode::kNotFound), "NotFound");
    EXPECT_EQ(StatusCodeName(StatusCode::kNoMatch), "NoMatch");
    EXPECT_EQ(StatusCodeName(StatusCode::kAlreadyExists), "AlreadyExists");
}

StatusOr<int> Half(int n) {
    if (n % 2 != 0)
        return BadRequestError(std::to_string(n) + " is odd");
    return n / 2;
}

StatusOr<int> Quarter(int n) {
    CTRL_ASSIGN_OR_RETURN(int half, Half(n));
    CTRL_ASSIGN_OR_RETURN(int quarter, Half(half));
    return quarter;
}

Status CheckEven(int n) {
    CTRL_RETURN_IF_ERROR(Half(n).GetStatus());
    return OkStatus();
}

TEST(StatusOrTest, HoldsAValueOrAnError) {
    StatusOr<int> value = Half(8);
    ASSERT_TRUE(value.Ok());
    EXPECT_EQ(*value, 4);
    EXPECT_TRUE(value.GetStatus().Ok());

    StatusOr<int> error = Half(3);
    ASSERT_FALSE(error.Ok());
    EXPECT_TRUE(IsBadRequest(error.GetStatus()));
    EXPECT_EQ(error.GetStatus().Message(), "3 is odd");
    EXPECT_EQ(error.ValueOr(-1), -1);
}

TEST(StatusOrTest, MacrosPropagateTheFirstError) {
    EXPECT_EQ(*Quarter(8), 2);
    EXPECT_EQ(Quarter(6).GetStatus().Message(), "3 is odd");
    EXPECT_TRUE(CheckEven(2).Ok());
    EXPECT_FALSE(CheckEven(1).Ok());
}

TEST(StatusOrTest, OkStatusWithoutValueBecomesInternal) {
    StatusOr<std::string> broken(OkStatus());
    EXPECT_FALSE(broken.Ok());
    EXPECT_TRUE(IsInternal(broken.GetStatus()));
}

TEST(StatusOrTest, MovesOutMoveOnlyValues) {
    StatusOr<std::unique_ptr<int>> owned(std::make_unique<int>(7));
    std::unique_ptr<int> taken = std::move(owned).Value();
    EXPECT_EQ(*taken, 7);
}

TEST(StatusOrDeathTest, ReadingTheValueOfAnErrorAborts) {
    StatusOr<int> error = Half(3);
    EXPECT_DEATH((void)error.Value(), "value read from an error: BadRequest: 3 is odd");
}

}  // namespace
}  // namespace ctrl
