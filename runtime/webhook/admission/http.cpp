#include "ctrl/webhook/admission/http.hpp"

#include <charconv>
#include <chrono>
#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "ctrl/log/log.hpp"
#include "ctrl/webhook/internal/review_body.hpp"

namespace ctrl::webhook::admission {
namespace {

using webhook::internal::JsonAnswer;

constexpr char kReviewKey = 0;  // the address keys the request in a Context

// A Go duration as the API server writes it in `?timeout=`: "10s", "500ms", "1m30s".
std::optional<std::chrono::milliseconds> ParseGoDuration(std::string_view text) {
    if (text.empty())
        return std::nullopt;
    std::chrono::milliseconds total{0};
    while (!text.empty()) {
        double number = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
        if (error != std::errc() || end == text.data())
            return std::nullopt;
        text.remove_prefix(static_cast<std::size_t>(end - text.data()));
        double unit_ms = 0;
        if (text.starts_with("ms")) {
            unit_ms = 1, text.remove_prefix(2);
        } else if (text.starts_with("s")) {
            unit_ms = 1000, text.remove_prefix(1);
        } else if (text.starts_with("m")) {
            unit_ms = 60'000, text.remove_prefix(1);
        } else if (text.starts_with("h")) {
            unit_ms = 3'600'000, text.remove_prefix(1);
        } else {
            return std::nullopt;
        }
        total += std::chrono::milliseconds(static_cast<int64_t>(number * unit_ms));
    }
    return total;
}

Task<server::ServerResponse> ServeOne(Handler handler, const server::ServerRequest& http) {
    if (std::optional<std::string> problem = internal::ContentTypeProblem(http))
        co_return JsonAnswer(EncodeReview("", "", Errored(400, std::move(*problem))));
    StatusOr<Review> review = DecodeReview(http.body);
    if (!review.Ok()) {
        log::Logger().WithName("webhook").Error(review.GetStatus(), "unable to decode the request");
        co_return JsonAnswer(EncodeReview("", "", Errored(400, review.GetStatus().Message())));
    }
    Context ctx = http.ctx;
    const std::vector<std::string> timeout = http.QueryValues("timeout");
    if (!timeout.empty())
        if (std::optional<std::chrono::milliseconds> bound = ParseGoDuration(timeout.front()))
            ctx = Context::WithTimeout(ctx, *bound);
    Response response;
    try {
        const Context call_ctx = WithRequest(ctx, review->request);  // named: no temporary in co_await
        response = co_await handler(call_ctx, review->request);
    } catch (const std::exception& e) {
        response = Errored(500, std::string("the webhook failed: ") + e.what());
    }
    co_return JsonAnswer(EncodeReview(review->api_version, review->request.uid, response));
}

}  // namespace

const Request* RequestFrom(const Context& ctx) {
    return static_cast<const Request*>(ctx.Value(&kReviewKey).get());
}

Context WithRequest(const Context& ctx, const Request& request) {
    // Not owned: the request outlives every call the handler makes with this ctx.
    return Context::WithValue(ctx, &kReviewKey, std::shared_ptr<const void>(std::shared_ptr<void>(), &request));
}

server::HttpHandler Serve(Handler handler) {
    return [handler = std::move(handler)](const server::ServerRequest& request) { return ServeOne(handler, request); };
}

}  // namespace ctrl::webhook::admission
