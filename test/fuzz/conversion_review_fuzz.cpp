// Conversion reviews: any bytes POSTed to a conversion webhook (the test Widgets: v2 the hub, v1 and
// v3 spokes). The HTTP adapter (conversion::Serve) answers every body with HTTP 200 and a
// ConversionReview: a body it cannot read is a Failure with code 400 (never a crash); one that
// decodes is answered with its own uid and, on Success, one object per object sent, each in the
// desired apiVersion. And nothing is lost: an object (without kept content of its own, or
// duplicate members) converted to another version and back has the content it had.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/webhook/conversion/convertible.hpp"
#include "ctrl/webhook/conversion/http.hpp"
#include "test/fuzz/fuzz_input.hpp"
#include "test/unit/webhook/widget_kinds.hpp"

namespace ctrl::fuzz {
namespace {

using namespace webhook::conversion;

std::shared_ptr<Registry> Widgets() {
    auto registry = std::make_shared<Registry>();
    StatusOr<Converter> converter = HubConverter<ctrl::testing::widgets::v2::Widget>();
    if (!converter.Ok() || !registry->Register(std::move(converter).Value()).Ok())
        PropertyFailed("the Widget converter does not register", "");
    return registry;
}

void CheckAnswer(std::string_view body, const server::ServerResponse& answer) {
    if (answer.status != 200)
        PropertyFailed("the answer is not HTTP 200", body);
    StatusOr<Object> review = Object::Parse(answer.body);
    if (!review.Ok() || review->Kind() != "ConversionReview")
        PropertyFailed("the answer is not a ConversionReview", std::string(body) + "\n=> " + answer.body);
    StatusOr<Review> decoded = DecodeReview(body);
    if (!decoded.Ok()) {
        if (!IsBadRequest(decoded.GetStatus()))
            PropertyFailed("a body that does not decode is not a BadRequest", decoded.GetStatus().ToString());
        if (review->NestedInt({"response", "result", "code"}).ValueOr(0) != 400 ||
            review->NestedString({"response", "result", "status"}).ValueOr("") != "Failure")
            PropertyFailed("an unreadable body is not a Failure with code 400", answer.body);
        return;
    }
    if (review->NestedString({"response", "uid"}).ValueOr("") != decoded->request.uid)
        PropertyFailed("the answer's uid is not the request's", answer.body);
    if (review->NestedString({"response", "result", "status"}).ValueOr("") != "Success")
        return;
    StatusOr<std::vector<Object>> converted = review->NestedSlice({"response", "convertedObjects"});
    if (!converted.Ok() || converted->size() != decoded->request.objects.size())
        PropertyFailed("a Success does not return one object per object sent", answer.body);
    for (const Object& object : *converted) {
        if (object.ApiVersion() != decoded->request.desired_api_version)
            PropertyFailed("a converted object is not in the desired apiVersion", answer.body);
    }
}

bool HasKeptContent(const Object& object) {
    for (const auto& [key, value] : object.Annotations()) {
        if (key.starts_with(kKeptContentAnnotationPrefix))
            return true;
    }
    return false;
}

// Each Widget of the request converted to every version and back has its content again.
void CheckRoundTrips(const Registry& registry, std::string_view body) {
    StatusOr<Review> decoded = DecodeReview(body);
    if (!decoded.Ok())
        return;
    const std::shared_ptr<const Converter> widgets = registry.Find(GroupKind("test.ctrl.dev", "Widget"));
    for (const Object& object : decoded->request.objects) {
        StatusOr<GroupVersionKind> gvk = object.GetGroupVersionKind();
        if (!gvk.Ok() || gvk->ToGroupKind() != widgets->Kind() || !widgets->HasVersion(gvk->version) ||
            HasKeptContent(object) || HasDuplicateMembers(object))
            continue;
        for (const std::string& version : widgets->Versions()) {
            StatusOr<Object> there = widgets->Convert(object, version);
            if (!there.Ok())
                continue;
            StatusOr<Object> back = widgets->Convert(*there, gvk->version);
            if (!back.Ok())
                PropertyFailed("an object converted to " + version + " does not convert back", object.ToJson());
            Object expected = object.DeepCopy();
            Object got = std::move(back).Value();
            (void)expected.RemoveNestedField({"metadata"});
            (void)got.RemoveNestedField({"metadata"});
            if (got != expected)
                PropertyFailed("a round trip through " + version + " lost or changed something",
                               object.ToJson() + "\n=> " + got.ToJson());
        }
    }
}

}  // namespace
}  // namespace ctrl::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ctrl;
    // The adapter logs every body it cannot decode or convert, as it should; here that is most inputs.
    static const bool quiet = [] {
        static std::ostream discard(nullptr);
        log::SetSink(log::NewTextSink(discard));
        return true;
    }();
    (void)quiet;
    static const std::shared_ptr<webhook::conversion::Registry> registry = fuzz::Widgets();
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    server::ServerRequest request;
    request.method = "POST";
    request.target = request.path = "/convert";
    request.headers.emplace_back("Content-Type", "application/json");
    request.body = std::string(body);
    boost::asio::io_context io;
    const server::ServerResponse answer = RunSync(io, webhook::conversion::Serve(registry)(request));
    fuzz::CheckAnswer(body, answer);
    fuzz::CheckRoundTrips(*registry, body);
    return 0;
}
