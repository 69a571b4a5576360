#include "ctrl/webhook/admission/http.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"

namespace ctrl::webhook::admission {
namespace {

constexpr std::string_view kCreate = R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1",
  "request":{"uid":"abc","operation":"CREATE","object":{"apiVersion":"v1","kind":"ConfigMap"}}})";

server::ServerRequest Post(std::string body, std::string target = "/validate",
                           std::string content_type = "application/json") {
    server::ServerRequest request;
    request.method = "POST";
    request.target = target;
    request.path = target.substr(0, target.find('?'));
    if (target.find('?') != std::string::npos)
        request.query = target.substr(target.find('?') + 1);
    request.headers.emplace_back("Content-Type", std::move(content_type));
    request.body = std::move(body);
    return request;
}

Object Answer(const server::HttpHandler& handler, const server::ServerRequest& request) {
    boost::asio::io_context io;
    const server::ServerResponse response = RunSync(io, handler(request));
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    StatusOr<Object> review = Object::Parse(response.body);
    EXPECT_TRUE(review.Ok()) << response.body;
    return review.Ok() ? std::move(review).Value() : Object();
}

Handler AllowWith(std::string message) {
    return [message](Context, const Request&) -> Task<Response> { co_return Allowed(message); };
}

TEST(AdmissionHttpTest, AnswersTheReviewWithTheRequestsUidAndApiVersion) {
    const Object review = Answer(Serve(AllowWith("fine")), Post(std::string(kCreate)));
    EXPECT_EQ(review.ApiVersion(), "admission.k8s.io/v1");
    EXPECT_EQ(*review.NestedString({"response", "uid"}), "abc");
    EXPECT_TRUE(*review.NestedBool({"response", "allowed"}));
    EXPECT_EQ(*review.NestedString({"response", "status", "message"}), "fine");
}

TEST(AdmissionHttpTest, AWrongContentTypeOrABadBodyIsRefusedWith400InTheReview) {
    const server::HttpHandler handler = Serve(AllowWith(""));
    const Object typed = Answer(handler, Post(std::string(kCreate), "/validate", "text/plain"));
    EXPECT_FALSE(*typed.NestedBool({"response", "allowed"}));
    EXPECT_EQ(*typed.NestedInt({"response", "status", "code"}), 400);
    EXPECT_NE(typed.NestedString({"response", "status", "message"})->find("expected application/json"),
              std::string::npos);
    for (std::string body : {"", "{not json", R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1"})"}) {
        const Object bad = Answer(handler, Post(body));
        EXPECT_FALSE(*bad.NestedBool({"response", "allowed"})) << body;
        EXPECT_EQ(*bad.NestedInt({"response", "status", "code"}), 400) << body;
    }
}

TEST(AdmissionHttpTest, AThrowingHandlerIsAnswered500AndTheTimeoutBoundsItsContext) {
    const Handler throws = [](Context, const Request&) -> Task<Response> {
        throw std::runtime_error("bug");
        co_return Allowed();
    };
    const Object failed = Answer(Serve(throws), Post(std::string(kCreate)));
    EXPECT_EQ(*failed.NestedInt({"response", "status", "code"}), 500);
    EXPECT_NE(failed.NestedString({"response", "status", "message"})->find("bug"), std::string::npos);

    const Handler deadline = [](Context ctx, const Request&) -> Task<Response> {
        const auto left =
            ctx.Deadline().value_or(std::chrono::steady_clock::time_point::max()) - std::chrono::steady_clock::now();
        co_return left <= std::chrono::seconds(5) && left > std::chrono::seconds(3) ? Allowed() : Denied("no deadline");
    };
    const Object bounded = Answer(Serve(deadline), Post(std::string(kCreate), "/validate?timeout=5s"));
    EXPECT_TRUE(*bounded.NestedBool({"response", "allowed"}));
}

}  // namespace
}  // namespace ctrl::webhook::admission
