#include "ctrl/webhook/conversion/http.hpp"

#include <exception>
#include <string>
#include <utility>

#include "ctrl/log/log.hpp"
#include "ctrl/webhook/internal/review_body.hpp"

namespace ctrl::webhook::conversion {
namespace {

using webhook::internal::JsonAnswer;

Response Unreadable(std::string message) {
    Response response;
    response.result = BadRequestError(std::move(message));
    return response;
}

Task<server::ServerResponse> ServeOne(std::shared_ptr<const Registry> registry, const server::ServerRequest& http) {
    const log::Logger logger = log::Logger().WithName("conversion-webhook");
    if (std::optional<std::string> problem = webhook::internal::ContentTypeProblem(http))
        co_return JsonAnswer(EncodeReview("", "", Unreadable(std::move(*problem))));
    StatusOr<Review> review = DecodeReview(http.body);
    if (!review.Ok()) {
        logger.Error(review.GetStatus(), "failed to read conversion request");
        co_return JsonAnswer(EncodeReview("", "", Unreadable(review.GetStatus().Message())));
    }
    Response response;
    try {
        response = registry->Convert(review->request);
    } catch (const std::exception& e) {
        response = Response{};
        response.result = InternalError(std::string("the conversion failed: ") + e.what());
    }
    if (!response.result.Ok())
        logger.Error(response.result, "failed to convert", "request", review->request.uid);
    co_return JsonAnswer(EncodeReview(review->api_version, review->request.uid, response));
}

}  // namespace

server::HttpHandler Serve(std::shared_ptr<const Registry> registry) {
    return
        [registry = std::move(registry)](const server::ServerRequest& request) { return ServeOne(registry, request); };
}

}  // namespace ctrl::webhook::conversion
