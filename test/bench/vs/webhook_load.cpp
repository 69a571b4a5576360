#include "test/bench/vs/webhook_load.hpp"

#include <chrono>
#include <exception>
#include <latch>
#include <memory>
#include <utility>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/core/sleep.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "test/bench/bench_process.hpp"

namespace ctrl::bench::vs {
namespace {

using namespace std::chrono_literals;

// What every refusal of the invalid policy says, on both sides (the validator's message).
constexpr std::string_view kRefusal = "is not a security group id";

// The policy sent as request seq: even seqs valid, odd ones with a group id that is not one (which
// only the webhook refuses: the CRD's schema takes any string). metadata as the API server sends
// it to a webhook for a dry-run create (uid, creationTimestamp, generation, managedFields), which
// the direct load sends too; through the API server only name and namespace are given.
std::string Policy(int seq, const std::string& namespace_name, bool full_metadata) {
    const std::string name = "policy-" + std::to_string(seq);
    std::string metadata = R"({"name":")" + name + R"(","namespace":")" + namespace_name + '"';
    if (full_metadata)
        metadata += R"(,"uid":"0d5a4f2c-1b7e-4c55-9a0e-)" + std::to_string(100000000000 + seq) +
                    R"(","generation":1,"creationTimestamp":"2026-12-06T06:00:00Z","managedFields":[{"manager":)"
                    R"("ctrl-vs-probe","operation":"Update","apiVersion":"vpcresources.k8s.aws/v1beta1","time":)"
                    R"("2026-12-06T06:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{".":{},)"
                    R"("f:podSelector":{},"f:securityGroups":{".":{},"f:groupIds":{}}}}}])";
    metadata += '}';
    const std::string second_group = seq % 2 == 0 ? "sg-0123456789abcdef0" : "sg-web";
    return R"({"apiVersion":"vpcresources.k8s.aws/v1beta1","kind":"SecurityGroupPolicy","metadata":)" + metadata +
           R"(,"spec":{"podSelector":{"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier",)"
           R"("operator":"In","values":["frontend","backend"]}]},"securityGroups":{"groupIds":["sg-0123abcd",")" +
           second_group + R"("]}}})";
}

// The AdmissionReview the API server sends for a dry-run create of Policy(seq).
std::string Review(int seq, const std::string& namespace_name) {
    constexpr std::string_view kGvk = R"({"group":"vpcresources.k8s.aws","version":"v1beta1",)"
                                      R"("kind":"SecurityGroupPolicy"})";
    constexpr std::string_view kGvr = R"({"group":"vpcresources.k8s.aws","version":"v1beta1",)"
                                      R"("resource":"securitygrouppolicies"})";
    return R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"uid":"bench-)" +
           std::to_string(seq) + R"(","kind":)" + std::string(kGvk) + R"(,"resource":)" + std::string(kGvr) +
           R"(,"requestKind":)" + std::string(kGvk) + R"(,"requestResource":)" + std::string(kGvr) +
           R"(,"name":"policy-)" + std::to_string(seq) + R"(","namespace":")" + namespace_name +
           R"(","operation":"CREATE","userInfo":{"username":"kubernetes-admin","groups":["kubeadm:cluster-admins",)"
           R"("system:authenticated"]},"object":)" +
           Policy(seq, namespace_name, true) +
           R"(,"oldObject":null,"dryRun":true,"options":{"kind":"CreateOptions","apiVersion":"meta.k8s.io/v1",)"
           R"("dryRun":["All"]}}})";
}

// Whether body says `"allowed":<allowed>` (no space: Go's encoding/json and ctrl both write it so).
bool Says(std::string_view body, std::string_view what) {
    return body.find(what) != std::string_view::npos;
}

// Sends request seq and checks its answer: OK, or what was wrong.
Task<Status> SendOne(rest::RestClient& client, const AdmissionLoadOptions& options, int seq) {
    const bool valid = seq % 2 == 0;
    rest::HttpRequest request;
    request.method = "POST";
    request.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
    if (options.through_apiserver) {
        request.target = "/apis/vpcresources.k8s.aws/v1beta1/namespaces/" + options.namespace_name +
                         "/securitygrouppolicies?dryRun=All";
        request.body = Policy(seq, options.namespace_name, false);
    } else {
        request.target = std::string(kWebhookPath);
        request.body = Review(seq, options.namespace_name);
    }
    Context ctx = Context::WithTimeout(Context::Background(), 30s);
    StatusOr<rest::HttpResponse> answer = co_await client.Do(std::move(ctx), std::move(request));
    if (options.through_apiserver) {
        if (valid)
            co_return answer.Ok() ? OkStatus() : answer.GetStatus().Annotate("a valid policy");
        if (answer.Ok())
            co_return Status(StatusCode::kInternal, "an invalid policy was admitted");
        co_return Says(answer.GetStatus().Message(), kRefusal)
            ? OkStatus()
            : answer.GetStatus().Annotate("an invalid policy, not refused by the webhook");
    }
    if (!answer.Ok())
        co_return answer.GetStatus();
    const std::string_view body = answer->body;
    const bool right =
        Says(body, "\"uid\":\"bench-" + std::to_string(seq) + '"') &&
        (valid ? Says(body, "\"allowed\":true") : Says(body, "\"allowed\":false") && Says(body, kRefusal));
    co_return right
        ? OkStatus()
        : Status(StatusCode::kInternal, std::string(valid ? "valid" : "invalid") +
                                            " policy, unexpected answer: " + std::string(body.substr(0, 300)));
}

// Through the API server: until it admits a valid policy and refuses an invalid one with the
// validator's message (this side's configuration in effect, no other side's left), at most 60 s.
Task<Status> AwaitWebhook(rest::RestClient& client, const AdmissionLoadOptions& options, AdmissionLoadResult& result) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    Status last = OkStatus();
    while (std::chrono::steady_clock::now() < deadline) {
        const int seq = result.warmup_requests;
        result.warmup_requests += 2;
        last = co_await SendOne(client, options, seq);
        if (last.Ok())
            last = co_await SendOne(client, options, seq + 1);
        if (last.Ok())
            co_return OkStatus();
        (void)co_await SleepFor(Context::Background(), 100ms);
    }
    co_return last.Annotate("the API server did not call the webhook as expected within 60 s");
}

// What the clients share; they run on one thread, so plain fields are enough.
struct Shared {
    rest::RestClient& client;
    const AdmissionLoadOptions& options;
    AdmissionLoadResult& result;
    int next = 0;
};

Task<void> Warm(Shared& shared) {
    for (int i = 0; i < shared.options.warmup_per_client; ++i) {
        const int seq = shared.next++;
        ++shared.result.warmup_requests;
        if (Status sent = co_await SendOne(shared.client, shared.options, seq);
            !sent.Ok() && ++shared.result.errors == 1)
            shared.result.first_error = "warm-up: " + sent.ToString();
    }
}

Task<void> Measure(Shared& shared, std::chrono::steady_clock::time_point end) {
    while (std::chrono::steady_clock::now() < end) {
        const int seq = shared.next++;
        ++shared.result.requests;
        const auto sent_at = std::chrono::steady_clock::now();
        const Status sent = co_await SendOne(shared.client, shared.options, seq);
        shared.result.latencies.push_back((std::chrono::steady_clock::now() - sent_at).count());
        if (!sent.Ok() && ++shared.result.errors == 1)
            shared.result.first_error = sent.ToString();
    }
}

// Runs `clients` copies of phase on loop and waits for all of them.
template <typename Phase>
void RunClients(Loop& loop, int clients, Phase phase) {
    std::latch done(clients);
    for (int i = 0; i < clients; ++i)
        boost::asio::co_spawn(loop.Executor(), phase(), [&done](std::exception_ptr) { done.count_down(); });
    done.wait();
}

}  // namespace

std::string WebhookNamespace(const ProbeArgs& args) {
    return args.layout.prefix + "-webhook";
}

StatusOr<AdmissionLoadResult> RunAdmissionLoad(const rest::Config& config, const AdmissionLoadOptions& options) {
    Loop loop;
    metrics::Registry registry;
    StatusOr<std::unique_ptr<rest::RestClient>> client = rest::RestClient::New(config, loop.Executor(), registry);
    if (!client.Ok())
        return client.GetStatus().Annotate("making the load's client");
    (*client)->SetMaxRetries(0);
    AdmissionLoadResult result;
    result.latencies.reserve(1 << 20);
    Shared shared{**client, options, result};
    if (options.through_apiserver) {
        Status called = loop.Run(AwaitWebhook(**client, options, result));
        if (!called.Ok())
            return called;
        shared.next = result.warmup_requests;
    }
    RunClients(loop, options.clients, [&shared] { return Warm(shared); });
    if (result.errors > 0)
        return Status(StatusCode::kInternal, result.first_error);
    const auto start = std::chrono::steady_clock::now();
    const auto end = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(options.seconds));
    RunClients(loop, options.clients, [&shared, end] { return Measure(shared, end); });
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace ctrl::bench::vs
