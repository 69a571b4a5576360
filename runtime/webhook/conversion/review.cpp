#include "ctrl/webhook/conversion/review.hpp"

#include <utility>

#include "ctrl/core/json_string.hpp"
#include "ctrl/webhook/internal/review_body.hpp"

namespace ctrl::webhook::conversion {
namespace {

constexpr std::string_view kReviewV1 = "apiextensions.k8s.io/v1";
constexpr std::string_view kReviewV1Beta1 = "apiextensions.k8s.io/v1beta1";

int FailureCode(const Status& status) {
    if (status.HttpCode() != 0)
        return status.HttpCode();
    switch (status.Code()) {
        case StatusCode::kBadRequest:
            return 400;
        case StatusCode::kNotFound:
            return 404;
        case StatusCode::kInvalid:
            return 422;
        default:
            return 500;
    }
}

// request.objects[index], checked: a JSON object with apiVersion and kind.
Status CheckObject(const Object& object, std::size_t index) {
    const std::string where = "ConversionReview: request.objects[" + std::to_string(index) + "]";
    if (!object.IsJsonObject())
        return BadRequestError(where + " is not a JSON object");
    if (object.ApiVersion().empty() || object.Kind().empty())
        return BadRequestError(where + " has no apiVersion or kind");
    return OkStatus();
}

}  // namespace

StatusOr<Review> DecodeReview(std::string_view body) {
    CTRL_ASSIGN_OR_RETURN(const Object review,
                          webhook::internal::ParseReview(body, {"ConversionReview", kReviewV1, kReviewV1Beta1}));
    Review out;
    out.api_version = std::string(review.ApiVersion());
    StatusOr<std::string> uid = review.NestedString({"request", "uid"});
    if (!uid.Ok() || uid->empty())
        return BadRequestError("ConversionReview: request.uid is missing or not a string");
    out.request.uid = std::move(uid).Value();
    StatusOr<std::string> desired = review.NestedString({"request", "desiredAPIVersion"});
    if (!desired.Ok() || desired->empty())
        return BadRequestError("ConversionReview: request.desiredAPIVersion is missing or not a string");
    out.request.desired_api_version = std::move(desired).Value();
    if (review.HasNestedField({"request", "objects"})) {
        StatusOr<std::vector<Object>> objects = review.NestedSlice({"request", "objects"});
        if (!objects.Ok())
            return BadRequestError("ConversionReview: request.objects is not a list");
        for (std::size_t i = 0; i < objects->size(); ++i)
            CTRL_RETURN_IF_ERROR(CheckObject((*objects)[i], i));
        out.request.objects = std::move(objects).Value();
    }
    return out;
}

std::string EncodeReview(std::string_view api_version, std::string_view uid, const Response& response) {
    std::string out = R"({"apiVersion":)";
    AppendJsonString(out, api_version.empty() ? kReviewV1 : api_version);
    out += R"(,"kind":"ConversionReview","response":{"uid":)";
    AppendJsonString(out, uid);
    if (response.result.Ok()) {
        out += R"(,"convertedObjects":[)";
        for (std::size_t i = 0; i < response.converted_objects.size(); ++i) {
            if (i > 0)
                out += ',';
            out += response.converted_objects[i].ToJson();
        }
        out += R"(],"result":{"status":"Success"}}})";
        return out;
    }
    out += R"(,"convertedObjects":[],"result":{"status":"Failure","message":)";
    AppendJsonString(out, response.result.Message());
    if (!response.result.Reason().empty()) {
        out += R"(,"reason":)";
        AppendJsonString(out, response.result.Reason());
    }
    out += R"(,"code":)" + std::to_string(FailureCode(response.result)) + "}}}";
    return out;
}

}  // namespace ctrl::webhook::conversion
