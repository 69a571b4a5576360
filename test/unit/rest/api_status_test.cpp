#include "ctrl/rest/api_status.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test/unit/protobuf/proto_builder.hpp"

namespace ctrl::rest {
namespace {

using ::testing::HasSubstr;

HttpResponse Response(int status, std::string body, std::vector<Header> headers = {}) {
    return HttpResponse{status, std::move(headers), std::move(body)};
}

TEST(ApiStatusTest, SuccessIsOk) {
    EXPECT_TRUE(StatusFromResponse(Response(200, "{}"), "GET x").Ok());
    EXPECT_TRUE(StatusFromResponse(Response(201, "{}"), "POST x").Ok());
}

TEST(ApiStatusTest, NotFoundKeepsTheServerMessageAndCode) {
    Status status =
        StatusFromResponse(Response(404, R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
            "message":"configmaps \"missing\" not found","reason":"NotFound",
            "details":{"name":"missing","kind":"configmaps"},"code":404})"),
                           "GET x");
    EXPECT_TRUE(IsNotFound(status));
    EXPECT_EQ(status.Message(), "configmaps \"missing\" not found");
    EXPECT_EQ(status.HttpCode(), 404);
    EXPECT_EQ(status.Reason(), "NotFound");
}

// Issue 19: a request that accepted protobuf gets its error Status in protobuf; it reads as the JSON one.
TEST(ApiStatusTest, AProtobufStatusReadsAsItsJson) {
    using protobuf::test::ProtoBuilder;
    ProtoBuilder status;  // metav1.Status: status 2, message 3, reason 4, code 6
    status.Bytes(2, "Failure").Bytes(3, "too old resource version: 10 (25)").Bytes(4, "Expired").Varint(6, 410);
    const std::string body = protobuf::test::Envelope("v1", "Status", status);
    const Status got =
        StatusFromResponse(Response(410, body, {{"Content-Type", "application/vnd.kubernetes.protobuf"}}), "WATCH x");
    EXPECT_TRUE(IsGone(got)) << got;
    EXPECT_EQ(got.Reason(), "Expired");
    EXPECT_THAT(got.Message(), ::testing::HasSubstr("too old resource version"));
}

TEST(ApiStatusTest, EachReasonMapsToItsCode) {
    struct Case {
        const char* reason;
        int code;
        StatusCode want;
    };
    for (const Case& c : std::vector<Case>{{"AlreadyExists", 409, StatusCode::kAlreadyExists},
                                           {"Conflict", 409, StatusCode::kConflict},
                                           {"Expired", 410, StatusCode::kGone},
                                           {"Gone", 410, StatusCode::kGone},
                                           {"Forbidden", 403, StatusCode::kForbidden},
                                           {"Unauthorized", 401, StatusCode::kUnauthorized},
                                           {"TooManyRequests", 429, StatusCode::kTooManyRequests},
                                           {"Timeout", 504, StatusCode::kTimeout},
                                           {"ServerTimeout", 500, StatusCode::kTimeout},
                                           {"ServiceUnavailable", 503, StatusCode::kUnavailable},
                                           {"InternalError", 500, StatusCode::kInternal},
                                           {"BadRequest", 400, StatusCode::kBadRequest},
                                           {"MethodNotAllowed", 405, StatusCode::kMethodNotAllowed},
                                           {"", 404, StatusCode::kNotFound},
                                           {"SomethingNew", 503, StatusCode::kUnavailable}}) {
        EXPECT_EQ(CodeForReason(c.reason, c.code), c.want) << c.reason << " " << c.code;
    }
}

TEST(ApiStatusTest, InvalidCarriesFieldCauses) {
    Status status =
        StatusFromResponse(Response(422, R"({"kind":"Status","status":"Failure","reason":"Invalid","code":422,
            "message":"ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\"",
            "details":{"causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"Bad_Name\"",
            "field":"metadata.name"}]}})"),
                           "POST x");
    ASSERT_TRUE(IsInvalid(status));
    ASSERT_EQ(status.Causes().size(), 1u);
    EXPECT_EQ(status.Causes()[0].type, "FieldValueInvalid");
    EXPECT_EQ(status.Causes()[0].field, "metadata.name");
}

TEST(ApiStatusTest, RetryAfterFromDetailsOrHeader) {
    Status from_details = StatusFromResponse(
        Response(429, R"({"kind":"Status","reason":"TooManyRequests","code":429,"message":"slow down",
            "details":{"retryAfterSeconds":7}})"),
        "GET x");
    EXPECT_EQ(from_details.RetryAfter(), std::chrono::seconds(7));
    Status from_header = StatusFromResponse(Response(503, "", {{"Retry-After", "2"}}), "GET x");
    EXPECT_TRUE(IsUnavailable(from_header));
    EXPECT_EQ(from_header.RetryAfter(), std::chrono::seconds(2));
    Status bad_header = StatusFromResponse(Response(503, "", {{"Retry-After", "Wed, 21 Oct 2026"}}), "GET x");
    EXPECT_FALSE(bad_header.RetryAfter().has_value());
}

TEST(ApiStatusTest, NonStatusBodyGivesTheHttpCodeAndASnippet) {
    std::string html =
        "<html>\r\n<head><title>502 Bad Gateway</title></head>\n<body>" + std::string(1000, 'x') + "</body></html>";
    Status status = StatusFromResponse(Response(502, html), "GET https://proxy/api");
    EXPECT_TRUE(IsInternal(status));
    EXPECT_EQ(status.HttpCode(), 502);
    EXPECT_THAT(status.Message(), HasSubstr("GET https://proxy/api: the server answered HTTP 502 with a body that is "
                                            "not JSON: <html> <head>"));
    EXPECT_LT(status.Message().size(), 400u);
    EXPECT_THAT(status.Message(), HasSubstr("..."));

    Status unauthorized = StatusFromResponse(Response(401, "Unauthorized"), "GET x");
    EXPECT_TRUE(IsUnauthorized(unauthorized));
}

TEST(ApiStatusTest, WatchErrorObjectBecomesGone) {
    StatusOr<Object> object = Object::Parse(
        R"json({"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 1 (5)",
            "reason":"Expired","code":410})json");
    ASSERT_TRUE(object.Ok());
    Status status = StatusFromApiStatus(*object, 200);
    EXPECT_TRUE(IsGone(status));
    EXPECT_EQ(status.HttpCode(), 410);
    EXPECT_EQ(status.Reason(), "Expired");
}

// Issue 17, part 5: an HTML page where JSON was wanted — a proxy's 502 page, or a login page answered
// with 200 — is an error naming the request, the HTTP code and that the body is not JSON.
TEST(ApiStatusTest, AnHtmlPageIsNotAnApiAnswerWhateverItsCode) {
    const std::string login = "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>SSO</body></html>";
    const Status page = StatusFromJsonResponse(Response(200, login, {{"Content-Type", "text/html; charset=utf-8"}}),
                                               "GET https://h/api");
    EXPECT_TRUE(IsInternal(page)) << page;
    EXPECT_EQ(page.HttpCode(), 200);
    EXPECT_THAT(page.Message(), HasSubstr("GET https://h/api: the server answered HTTP 200 with a body that is not "
                                          "JSON (Content-Type text/html; charset=utf-8), an HTML page"));
    EXPECT_THAT(page.Message(), HasSubstr("<title>Sign in</title>"));
    // Without a Content-Type, the body's first character tells.
    EXPECT_FALSE(StatusFromJsonResponse(Response(200, "  <html>x</html>"), "GET x").Ok());
    EXPECT_TRUE(StatusFromJsonResponse(Response(200, "<x>", {{"Content-Type", "text/plain"}}), "GET x").Ok());
    // JSON answers, and JSON-typed ones, are fine; StatusFromResponse alone never looks at a 2xx body.
    EXPECT_TRUE(StatusFromJsonResponse(Response(200, R"({"kind":"Pod"})"), "GET x").Ok());
    EXPECT_TRUE(StatusFromJsonResponse(Response(200, "{}", {{"Content-Type", "application/json"}}), "GET x").Ok());
    EXPECT_TRUE(StatusFromResponse(Response(200, login, {{"Content-Type", "text/html"}}), "GET x").Ok());

    const Status proxy = StatusFromJsonResponse(
        Response(502, "<html><body>Bad Gateway</body></html>", {{"Content-Type", "text/html"}}), "GET https://h/api");
    EXPECT_EQ(proxy.HttpCode(), 502);
    EXPECT_THAT(proxy.Message(), HasSubstr("GET https://h/api: the server answered HTTP 502 with a body that is not "
                                           "JSON (Content-Type text/html): <html><body>Bad Gateway"));
}

}  // namespace
}  // namespace ctrl::rest
