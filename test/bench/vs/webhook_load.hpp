#pragma once

// The admission load of the webhook rows (PROTOCOL.md, "webhook"): one generator for both sides'
// servers. Each of C clients (coroutines on one loop thread, each with one request in flight over
// a kept-alive HTTPS connection) sends a valid and an invalid SecurityGroupPolicy alternately,
// either as AdmissionReviews POSTed to the webhook server (directly) or as server-side dry-run
// creates that the API server hands to the webhook (through the API server); each answer is
// checked (the valid one admitted, the invalid one refused with the validator's message).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/config.hpp"
#include "test/bench/vs/probe_args.hpp"

namespace ctrl::bench::vs {

// Where both sides serve the validator: controller-runtime's path for the kind.
inline constexpr std::string_view kWebhookPath = "/validate-vpcresources-k8s-aws-v1beta1-securitygrouppolicy";

// The namespace whose SecurityGroupPolicies the bench's webhook configuration covers: P-webhook.
std::string WebhookNamespace(const ProbeArgs& args);

struct AdmissionLoadOptions {
    // Dry-run creates through the API server (config: the kubeconfig's); else AdmissionReviews
    // straight to the webhook server (config: its URL and CA, no credentials).
    bool through_apiserver = false;
    std::string namespace_name{};
    int clients = 1;
    double seconds = 10;
    // Requests each client sends before the measured interval (connections made, both sides'
    // code paths run once).
    int warmup_per_client = 20;
};

struct AdmissionLoadResult {
    int warmup_requests = 0;  // including the wait for the API server to call this webhook
    int requests = 0;         // measured, answered or not
    int errors = 0;           // measured requests whose answer was wrong or missing
    std::string first_error{};
    double seconds = 0;              // the measured interval: start to the last answer
    std::vector<int64_t> latencies;  // ns, each measured request
};

// Sends the load on a loop thread of its own and returns when every request is answered. An error
// when the client cannot be made or, through the API server, when the server never calls this
// webhook as expected within 60 s (a valid policy admitted and an invalid one refused by it).
StatusOr<AdmissionLoadResult> RunAdmissionLoad(const rest::Config& config, const AdmissionLoadOptions& options);

}  // namespace ctrl::bench::vs
