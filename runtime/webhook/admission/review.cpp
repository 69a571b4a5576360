#include "ctrl/webhook/admission/review.hpp"

#include <utility>

#include "ctrl/client/patch.hpp"
#include "ctrl/core/base64.hpp"
#include "ctrl/webhook/internal/review_body.hpp"

namespace ctrl::webhook::admission {
namespace {

constexpr std::string_view kReviewV1 = "admission.k8s.io/v1";
constexpr std::string_view kReviewV1Beta1 = "admission.k8s.io/v1beta1";

// A string field of the review's request; "" when absent.
std::string RequestString(const Object& review, std::string_view field) {
    StatusOr<std::string> value = review.NestedString({"request", field});
    return value.Ok() ? std::move(value).Value() : std::string();
}

// request.<field>.{group,version,<last>} as three strings.
std::vector<std::string> Triple(const Object& review, std::string_view field, std::string_view last) {
    std::vector<std::string> out;
    for (std::string_view part : {std::string_view("group"), std::string_view("version"), last}) {
        StatusOr<std::string> value = review.NestedString({"request", field, part});
        out.push_back(value.Ok() ? std::move(value).Value() : std::string());
    }
    return out;
}

StatusOr<Operation> ParseOperation(std::string_view name) {
    if (name == "CREATE")
        return Operation::kCreate;
    if (name == "UPDATE")
        return Operation::kUpdate;
    if (name == "DELETE")
        return Operation::kDelete;
    if (name == "CONNECT")
        return Operation::kConnect;
    return BadRequestError("AdmissionReview: request.operation \"" + std::string(name) +
                           "\" is not CREATE, UPDATE, DELETE or CONNECT");
}

// request.<field> as an object: absent or null is no object; any other non-object is BadRequest.
Status ReadObject(const Object& review, std::string_view field, Object& out, bool& present) {
    present = false;
    if (!review.HasNestedField({"request", field}))
        return OkStatus();
    StatusOr<Object> value = review.NestedMap({"request", field});
    if (!value.Ok())
        return BadRequestError("AdmissionReview: request." + std::string(field) + " is not a JSON object");
    out = std::move(value).Value();
    present = true;
    return OkStatus();
}

int UsualHttpCode(StatusCode code) {
    switch (code) {
        case StatusCode::kBadRequest:
            return 400;
        case StatusCode::kUnauthorized:
            return 401;
        case StatusCode::kNotFound:
            return 404;
        case StatusCode::kMethodNotAllowed:
            return 405;
        case StatusCode::kAlreadyExists:
        case StatusCode::kConflict:
            return 409;
        case StatusCode::kGone:
            return 410;
        case StatusCode::kInvalid:
            return 422;
        case StatusCode::kTooManyRequests:
            return 429;
        case StatusCode::kInternal:
            return 500;
        case StatusCode::kUnavailable:
            return 503;
        case StatusCode::kTimeout:
            return 504;
        default:
            return 403;
    }
}

}  // namespace

std::string_view OperationName(Operation operation) {
    switch (operation) {
        case Operation::kCreate:
            return "CREATE";
        case Operation::kUpdate:
            return "UPDATE";
        case Operation::kDelete:
            return "DELETE";
        case Operation::kConnect:
            return "CONNECT";
    }
    return "UNKNOWN";
}

Response& Response::WithWarnings(std::vector<std::string> more) {
    for (std::string& warning : more)
        warnings.push_back(std::move(warning));
    return *this;
}

Response Allowed(std::string message) {
    Response response;
    response.message = std::move(message);
    return response;
}

Response Denied(std::string message) {
    Response response;
    response.allowed = false;
    response.code = 403;
    response.reason = "Forbidden";
    response.message = std::move(message);
    return response;
}

Response Errored(int code, std::string message) {
    Response response;
    response.allowed = false;
    response.code = code;
    response.message = std::move(message);
    return response;
}

Response FromStatus(const Status& status) {
    if (status.Ok())
        return Allowed();
    Response response;
    response.allowed = false;
    const bool usual_name = StatusCodeName(status.Code()) != "Unknown";
    response.code = status.HttpCode() != 0 ? status.HttpCode() : UsualHttpCode(status.Code());
    response.reason = !status.Reason().empty() ? status.Reason()
                      : response.code == 403   ? "Forbidden"
                      : usual_name             ? std::string(StatusCodeName(status.Code()))
                                               : "";
    response.message = status.Message();
    response.causes = status.Causes();
    return response;
}

Response PatchResponse(const Object& original, const Object& modified) {
    Response response;
    std::string patch = client::JsonPatchBetween(original, modified);
    if (patch != "[]")
        response.patch = std::move(patch);
    return response;
}

StatusOr<Review> DecodeReview(std::string_view body) {
    CTRL_ASSIGN_OR_RETURN(const Object review,
                          webhook::internal::ParseReview(body, {"AdmissionReview", kReviewV1, kReviewV1Beta1}));
    Review out;
    out.api_version = std::string(review.ApiVersion());
    Request& request = out.request;
    request.uid = RequestString(review, "uid");
    if (request.uid.empty())
        return BadRequestError("AdmissionReview: request.uid is missing");
    CTRL_ASSIGN_OR_RETURN(request.operation, ParseOperation(RequestString(review, "operation")));
    auto kind = Triple(review, "kind", "kind");
    request.kind = GroupVersionKind(kind[0], kind[1], kind[2]);
    auto resource = Triple(review, "resource", "resource");
    request.resource = GroupVersionResource(resource[0], resource[1], resource[2]);
    auto request_kind = Triple(review, "requestKind", "kind");
    request.request_kind = GroupVersionKind(request_kind[0], request_kind[1], request_kind[2]);
    auto request_resource = Triple(review, "requestResource", "resource");
    request.request_resource = GroupVersionResource(request_resource[0], request_resource[1], request_resource[2]);
    request.sub_resource = RequestString(review, "subResource");
    request.name = RequestString(review, "name");
    request.namespace_name = RequestString(review, "namespace");
    StatusOr<std::string> username = review.NestedString({"request", "userInfo", "username"});
    request.user_info.username = username.Ok() ? *username : "";
    StatusOr<std::string> user_uid = review.NestedString({"request", "userInfo", "uid"});
    request.user_info.uid = user_uid.Ok() ? *user_uid : "";
    StatusOr<std::vector<std::string>> groups = review.NestedStringSlice({"request", "userInfo", "groups"});
    request.user_info.groups = groups.Ok() ? *groups : std::vector<std::string>();
    CTRL_RETURN_IF_ERROR(ReadObject(review, "object", request.object, request.has_object));
    CTRL_RETURN_IF_ERROR(ReadObject(review, "oldObject", request.old_object, request.has_old_object));
    bool has_options = false;
    CTRL_RETURN_IF_ERROR(ReadObject(review, "options", request.options, has_options));
    StatusOr<bool> dry_run = review.NestedBool({"request", "dryRun"});
    request.dry_run = dry_run.Ok() && *dry_run;
    return out;
}

std::string EncodeReview(std::string_view api_version, std::string_view uid, const Response& response) {
    Object review;
    review.SetApiVersion(api_version.empty() ? kReviewV1 : api_version);
    review.SetKind("AdmissionReview");
    (void)review.SetNestedString({"response", "uid"}, uid);
    (void)review.SetNestedBool({"response", "allowed"}, response.allowed);
    if (!response.allowed || !response.message.empty()) {
        (void)review.SetNestedInt({"response", "status", "code"}, response.code);
        if (!response.message.empty())
            (void)review.SetNestedString({"response", "status", "message"}, response.message);
        if (!response.reason.empty())
            (void)review.SetNestedString({"response", "status", "reason"}, response.reason);
        if (!response.causes.empty()) {
            std::string causes = "[";
            for (const StatusCause& cause : response.causes) {
                Object one;
                if (!cause.type.empty())
                    (void)one.SetNestedString({"reason"}, cause.type);
                if (!cause.message.empty())
                    (void)one.SetNestedString({"message"}, cause.message);
                if (!cause.field.empty())
                    (void)one.SetNestedString({"field"}, cause.field);
                causes += (causes.size() > 1 ? "," : "") + one.ToJson();
            }
            StatusOr<Object> list = Object::Parse(causes + "]");
            if (list.Ok())
                (void)review.SetNestedField({"response", "status", "details", "causes"}, *list);
        }
    }
    if (!response.patch.empty()) {
        (void)review.SetNestedString({"response", "patchType"}, "JSONPatch");
        (void)review.SetNestedString({"response", "patch"}, Base64Encode(response.patch));
    }
    if (!response.warnings.empty())
        (void)review.SetNestedStringSlice({"response", "warnings"}, response.warnings);
    if (!response.audit_annotations.empty())
        (void)review.SetNestedStringMap({"response", "auditAnnotations"}, response.audit_annotations);
    return review.ToJson();
}

}  // namespace ctrl::webhook::admission
