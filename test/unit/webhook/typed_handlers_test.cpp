#include "ctrl/webhook/admission/typed_handlers.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/builder/webhook_builder.hpp"
#include "ctrl/core/run_sync.hpp"

namespace ctrl::webhook::admission {
namespace {

// Refuses a ConfigMap whose data has the key "forbidden"; warns about the key "old"; refuses an
// update that changes data["immutable"]; remembers whether it saw a dry run.
class ConfigMapRules final : public Validator<api::ConfigMap> {
  public:
    Task<Verdict> ValidateCreate(Context ctx, const api::ConfigMap& cm) override {
        saw_dry_run = RequestFrom(ctx) != nullptr && RequestFrom(ctx)->dry_run;
        co_return Check(cm);
    }
    Task<Verdict> ValidateUpdate(Context /*ctx*/, const api::ConfigMap& old_cm, const api::ConfigMap& cm) override {
        if (old_cm.DataValue("immutable") != cm.DataValue("immutable"))
            co_return InvalidError("data.immutable may not change", {{"FieldValueForbidden", "", "data.immutable"}});
        co_return Check(cm);
    }
    bool saw_dry_run = false;

  private:
    static Verdict Check(const api::ConfigMap& cm) {
        if (cm.DataValue("forbidden"))
            return ForbiddenError("data.forbidden is not allowed");
        if (cm.DataValue("old"))
            return Verdict(OkStatus(), {"data.old is deprecated"});
        return OkStatus();
    }
};

// Sets data["mode"] to "default" when missing; fails on data["fail"].
class ConfigMapDefaults final : public Defaulter<api::ConfigMap> {
  public:
    Task<Status> Default(Context /*ctx*/, api::ConfigMap& cm) override {
        if (cm.DataValue("fail"))
            co_return InternalError("cannot default");
        if (!cm.DataValue("mode"))
            cm.SetDataValue("mode", "default");
        co_return OkStatus();
    }
};

Request RequestFor(Operation operation, std::string_view object_json, std::string_view old_json = "") {
    Request request;
    request.uid = "u";
    request.operation = operation;
    if (!object_json.empty()) {
        request.object = *Object::Parse(object_json);
        request.has_object = true;
    }
    if (!old_json.empty()) {
        request.old_object = *Object::Parse(old_json);
        request.has_old_object = true;
    }
    return request;
}

Response Call(const Handler& handler, const Request& request) {
    boost::asio::io_context io;
    return RunSync(io, handler(WithRequest(Context::Background(), request), request));
}

constexpr std::string_view kPlain =
    R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}})";
constexpr std::string_view kForbidden =
    R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"forbidden":"1"}})";

TEST(TypedHandlersTest, AValidatorAdmitsRefusesAndWarns) {
    auto rules = std::make_shared<ConfigMapRules>();
    const Handler handler = ValidatingHandler<api::ConfigMap>(rules);
    EXPECT_TRUE(Call(handler, RequestFor(Operation::kCreate, kPlain)).allowed);
    const Response refused = Call(handler, RequestFor(Operation::kCreate, kForbidden));
    EXPECT_FALSE(refused.allowed);
    EXPECT_EQ(refused.code, 403);
    EXPECT_EQ(refused.message, "data.forbidden is not allowed");
    const Response warned =
        Call(handler, RequestFor(Operation::kCreate, R"({"apiVersion":"v1","kind":"ConfigMap","data":{"old":"1"}})"));
    EXPECT_TRUE(warned.allowed);
    EXPECT_EQ(warned.warnings, std::vector<std::string>{"data.old is deprecated"});
}

TEST(TypedHandlersTest, UpdateSeesTheOldObjectDeleteTheDeletedOneAndTheRequestIsInTheContext) {
    auto rules = std::make_shared<ConfigMapRules>();
    const Handler handler = ValidatingHandler<api::ConfigMap>(rules);
    const Response changed =
        Call(handler, RequestFor(Operation::kUpdate, R"({"kind":"ConfigMap","apiVersion":"v1",
        "data":{"immutable":"2"}})",
                                 R"({"kind":"ConfigMap","apiVersion":"v1","data":{"immutable":"1"}})"));
    EXPECT_FALSE(changed.allowed);
    EXPECT_EQ(changed.code, 422);
    ASSERT_EQ(changed.causes.size(), 1u);
    EXPECT_EQ(changed.causes[0].field, "data.immutable");
    EXPECT_TRUE(Call(handler, RequestFor(Operation::kDelete, "", kForbidden)).allowed) << "delete: admitted by default";
    Request dry = RequestFor(Operation::kCreate, kPlain);
    dry.dry_run = true;
    (void)Call(handler, dry);
    EXPECT_TRUE(rules->saw_dry_run);
}

TEST(TypedHandlersTest, AnObjectOfAnotherKindIsErrored400) {
    const Handler handler = ValidatingHandler<api::ConfigMap>(std::make_shared<ConfigMapRules>());
    const Response response =
        Call(handler, RequestFor(Operation::kCreate, R"({"apiVersion":"v1","kind":"Secret","metadata":{}})"));
    EXPECT_FALSE(response.allowed);
    EXPECT_EQ(response.code, 400);
    EXPECT_NE(response.message.find("cannot decode the request's object"), std::string::npos) << response.message;
}

TEST(TypedHandlersTest, ADefaulterAnswersTheComputedPatchAndKeepsUnknownFields) {
    const Handler handler = DefaultingHandler<api::ConfigMap>(std::make_shared<ConfigMapDefaults>());
    const Response response = Call(handler, RequestFor(Operation::kCreate, R"({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"a"},"data":{"k":"v"},"futureField":{"x":[1,2]}})"));
    EXPECT_TRUE(response.allowed);
    EXPECT_EQ(response.patch, R"([{"op":"add","path":"/data/mode","value":"default"}])")
        << "only the defaulted field: the unknown field is untouched";
    const Response nothing =
        Call(handler, RequestFor(Operation::kCreate, R"({"apiVersion":"v1","kind":"ConfigMap","data":{"mode":"x"}})"));
    EXPECT_TRUE(nothing.allowed);
    EXPECT_TRUE(nothing.patch.empty());
    const Response failed =
        Call(handler, RequestFor(Operation::kCreate, R"({"apiVersion":"v1","kind":"ConfigMap","data":{"fail":"1"}})"));
    EXPECT_FALSE(failed.allowed);
    EXPECT_EQ(failed.code, 500);
    EXPECT_TRUE(Call(handler, RequestFor(Operation::kDelete, "", kPlain)).allowed);
}

TEST(TypedHandlersTest, WebhookPathsAreControllerRuntimes) {
    EXPECT_EQ(builder::ValidatePath(GroupVersionKind("", "v1", "ConfigMap")), "/validate--v1-configmap");
    EXPECT_EQ(builder::MutatePath(GroupVersionKind("vpcresources.k8s.aws", "v1beta1", "SecurityGroupPolicy")),
              "/mutate-vpcresources-k8s-aws-v1beta1-securitygrouppolicy");
}

}  // namespace
}  // namespace ctrl::webhook::admission
