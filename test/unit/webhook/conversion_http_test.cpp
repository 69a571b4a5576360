// The conversion webhook's HTTP adapter and its registration: every answer is HTTP 200 with a
// ConversionReview (a body it cannot read: a Failure with code 400), and WebhookManagedBy serves
// /convert for a kind that is a hub or a spoke.
#include "ctrl/webhook/conversion/http.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include <boost/asio/io_context.hpp>

#include "ctrl/builder/webhook_builder.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/webhook/server.hpp"
#include "test/unit/webhook/widget_kinds.hpp"

namespace ctrl::webhook::conversion {
namespace {

using ::testing::HasSubstr;
namespace widgets = ctrl::testing::widgets;

constexpr std::string_view kReview = R"({"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1",
  "request":{"uid":"abc","desiredAPIVersion":"test.ctrl.dev/v1",
  "objects":[{"apiVersion":"test.ctrl.dev/v2","kind":"Widget","metadata":{"name":"a"},"spec":{"color":"red"}}]}})";

server::ServerRequest Post(std::string body, std::string content_type = "application/json") {
    server::ServerRequest request;
    request.method = "POST";
    request.target = request.path = "/convert";
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

std::shared_ptr<Registry> Widgets() {
    auto registry = std::make_shared<Registry>();
    StatusOr<Converter> converter = HubConverter<widgets::v2::Widget>();
    EXPECT_TRUE(converter.Ok() && registry->Register(std::move(converter).Value()).Ok());
    return registry;
}

TEST(ConversionHttpTest, AnswersWithTheConvertedObjectsAndTheRequestsUid) {
    const Object review = Answer(Serve(Widgets()), Post(std::string(kReview)));
    EXPECT_EQ(review.Kind(), "ConversionReview");
    EXPECT_EQ(*review.NestedString({"response", "uid"}), "abc");
    EXPECT_EQ(*review.NestedString({"response", "result", "status"}), "Success");
    StatusOr<std::vector<Object>> objects = review.NestedSlice({"response", "convertedObjects"});
    ASSERT_TRUE(objects.Ok() && objects->size() == 1);
    EXPECT_EQ(*objects->front().NestedString({"spec", "colour"}), "red");
}

TEST(ConversionHttpTest, ABodyItCannotReadIsAFailureWithCode400) {
    for (const server::ServerRequest& request :
         {Post("{"), Post(""), Post(R"({"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1"})"),
          Post(std::string(kReview), "text/plain")}) {
        const Object review = Answer(Serve(Widgets()), request);
        EXPECT_EQ(*review.NestedString({"response", "result", "status"}), "Failure") << request.body;
        EXPECT_EQ(*review.NestedInt({"response", "result", "code"}), 400) << request.body;
        EXPECT_FALSE(review.NestedString({"response", "result", "message"})->empty());
    }
    const Object wrong_type = Answer(Serve(Widgets()), Post(std::string(kReview), "text/plain"));
    EXPECT_THAT(*wrong_type.NestedString({"response", "result", "message"}),
                HasSubstr("contentType=text/plain, expected application/json"));
}

TEST(ConversionHttpTest, AFailedConversionIsAFailureWithTheRequestsUid) {
    std::string body(kReview);
    body.replace(body.find("\"Widget\""), 8, "\"Gadget\"");
    const Object review = Answer(Serve(Widgets()), Post(body));
    EXPECT_EQ(*review.NestedString({"response", "uid"}), "abc");
    EXPECT_EQ(*review.NestedString({"response", "result", "status"}), "Failure");
    EXPECT_THAT(*review.NestedString({"response", "result", "message"}), HasSubstr("no conversion of Gadget"));
}

TEST(ConversionHttpTest, AConversionThatThrowsIsAFailureWithCode500) {
    auto registry = std::make_shared<Registry>();
    Converter converter(GroupVersionKind("test.ctrl.dev", "v1", "Widget"));
    const auto keep = [](const Object&, Object&) { return OkStatus(); };
    const auto throws = [](const Object&, Object&) -> Status { throw std::runtime_error("boom"); };
    ASSERT_TRUE(converter.AddSpoke({"v2", keep, throws}).Ok());
    ASSERT_TRUE(registry->Register(std::move(converter)).Ok());
    const Object review = Answer(Serve(registry), Post(std::string(kReview)));
    EXPECT_EQ(*review.NestedInt({"response", "result", "code"}), 500);
    EXPECT_THAT(*review.NestedString({"response", "result", "message"}), HasSubstr("boom"));
}

class ConversionRegistrationTest : public ::testing::Test {
  protected:
    void SetUp() override {
        StatusOr<std::unique_ptr<Server>> made = Server::New(io_.get_executor(), {.port = -1});
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        server_ = std::move(made).Value();
    }
    boost::asio::io_context io_;
    std::unique_ptr<Server> server_;
};

struct FakeManager {
    Server* server;
    Server& GetWebhookServer() { return *server; }
};

TEST_F(ConversionRegistrationTest, AHubOrASpokeServesItsConversionAtConvertOnce) {
    FakeManager mgr{server_.get()};
    EXPECT_FALSE(server_->Registered("/convert"));
    ASSERT_TRUE(builder::WebhookManagedBy(mgr).For<widgets::v2::Widget>().Complete().Ok());
    EXPECT_TRUE(server_->Registered("/convert"));
    EXPECT_TRUE(server_->Conversions().Registered(GroupKind("test.ctrl.dev", "Widget")));
    EXPECT_TRUE(builder::WebhookManagedBy(mgr).For<widgets::v1::Widget>().Complete().Ok())
        << "a spoke of a kind already converting adds nothing and is no error";
    StatusOr<Converter> explicit_one = HubConverter<widgets::v2::Widget>();
    ASSERT_TRUE(explicit_one.Ok());
    EXPECT_TRUE(IsAlreadyExists(builder::WebhookManagedBy(mgr)
                                    .For<widgets::v3::Widget>()
                                    .WithConverter(std::move(explicit_one).Value())
                                    .Complete()));
}

TEST_F(ConversionRegistrationTest, AKindThatDoesNotConvertNeedsSomethingToServe) {
    FakeManager mgr{server_.get()};
    const Status nothing = builder::WebhookManagedBy(mgr).For<widgets::Gadget>().Complete();
    EXPECT_TRUE(IsBadRequest(nothing));
    EXPECT_THAT(nothing.Message(), HasSubstr("give WithValidator, WithDefaulter or WithConverter"));
    EXPECT_FALSE(server_->Registered("/convert"));
    StatusOr<Converter> widgets_converter = HubConverter<widgets::v2::Widget>();
    ASSERT_TRUE(widgets_converter.Ok());
    EXPECT_TRUE(IsBadRequest(builder::WebhookManagedBy(mgr)
                                 .For<widgets::Gadget>()
                                 .WithConverter(std::move(widgets_converter).Value())
                                 .Complete()))
        << "a converter of another kind";
}

TEST_F(ConversionRegistrationTest, ConvertTakenByAnotherHandlerIsAnError) {
    ASSERT_TRUE(server_
                    ->Register("/convert",
                               [](const server::ServerRequest&) -> Task<server::ServerResponse> {
                                   co_return server::TextResponse(200, "");
                               })
                    .Ok());
    StatusOr<Converter> converter = HubConverter<widgets::v2::Widget>();
    ASSERT_TRUE(converter.Ok());
    EXPECT_TRUE(IsAlreadyExists(server_->RegisterConversion(std::move(converter).Value())));
}

}  // namespace
}  // namespace ctrl::webhook::conversion
