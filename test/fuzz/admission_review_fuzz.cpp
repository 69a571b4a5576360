// Admission reviews: any bytes POSTed to an admission webhook. The HTTP adapter (admission::Serve)
// answers every body with HTTP 200 and an AdmissionReview (a body it cannot read is refused with
// code 400 and a message, never a crash); a body that decodes is answered with its own uid. The
// typed handlers decode the request's objects as a ConfigMap and a defaulter's patch is computed.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include <boost/asio/io_context.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/webhook/admission/http.hpp"
#include "ctrl/webhook/admission/typed_handlers.hpp"
#include "test/fuzz/fuzz_input.hpp"

namespace ctrl::fuzz {
namespace {

using namespace webhook::admission;

// Admits everything, setting a label: a patch is computed for every decodable object.
class Labeller final : public Defaulter<api::ConfigMap> {
  public:
    Task<Status> Default(Context /*ctx*/, api::ConfigMap& cm) override {
        cm.SetLabel("fuzzed", "yes");
        co_return OkStatus();
    }
};

// Refuses a ConfigMap with data["no"]; admits the rest.
class Refuser final : public Validator<api::ConfigMap> {
  public:
    Task<Verdict> ValidateCreate(Context /*ctx*/, const api::ConfigMap& cm) override {
        co_return cm.DataValue("no") ? Verdict(InvalidError("data.no")) : Verdict(OkStatus());
    }
    Task<Verdict> ValidateUpdate(Context /*ctx*/, const api::ConfigMap& /*old_cm*/, const api::ConfigMap& cm) override {
        co_return cm.DataValue("no") ? Verdict(InvalidError("data.no")) : Verdict(OkStatus());
    }
};

void CheckAnswer(std::string_view body, const server::ServerResponse& answer, const std::string& handler) {
    if (answer.status != 200)
        PropertyFailed(handler + ": the answer is not HTTP 200", std::string(body));
    StatusOr<Object> review = Object::Parse(answer.body);
    if (!review.Ok() || review->Kind() != "AdmissionReview")
        PropertyFailed(handler + ": the answer is not an AdmissionReview", std::string(body) + "\n=> " + answer.body);
    StatusOr<Review> decoded = DecodeReview(body);
    if (!decoded.Ok()) {
        if (!IsBadRequest(decoded.GetStatus()))
            PropertyFailed("a body that does not decode is not a BadRequest", decoded.GetStatus().ToString());
        StatusOr<int64_t> code = review->NestedInt({"response", "status", "code"});
        if (!code.Ok() || *code != 400)
            PropertyFailed(handler + ": an unreadable body is not refused with 400", answer.body);
        return;
    }
    StatusOr<std::string> uid = review->NestedString({"response", "uid"});
    if (!uid.Ok() || *uid != decoded->request.uid)
        PropertyFailed(handler + ": the answer's uid is not the request's", answer.body);
}

}  // namespace
}  // namespace ctrl::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ctrl;
    using namespace ctrl::webhook::admission;
    // The adapter logs every body it cannot decode, as it should; here that is every other input.
    static const bool quiet = [] {
        static std::ostream discard(nullptr);
        log::SetSink(log::NewTextSink(discard));
        return true;
    }();
    (void)quiet;
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    server::ServerRequest request;
    request.method = "POST";
    request.target = request.path = "/hook";
    request.headers.emplace_back("Content-Type", "application/json");
    request.body = std::string(body);
    const std::pair<std::string, Handler> handlers[] = {
        {"defaulter", DefaultingHandler<api::ConfigMap>(std::make_shared<fuzz::Labeller>())},
        {"validator", ValidatingHandler<api::ConfigMap>(std::make_shared<fuzz::Refuser>())},
    };
    for (const auto& [name, handler] : handlers) {
        boost::asio::io_context io;
        const server::ServerResponse answer = RunSync(io, Serve(handler)(request));
        fuzz::CheckAnswer(body, answer, name);
    }
    return 0;
}
