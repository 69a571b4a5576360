#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "ctrl/api/custom_resource_definition.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/config.hpp"

namespace ctrl::envtest {

// Where the CRDs converted by webhook send their ConversionReviews in a test: a webhook server on
// loopback (InstalledWebhooks::ConversionClient() says where InstallWebhooks pointed the rest).
struct ConversionWebhookClient {
    std::string url;     // "https://127.0.0.1:9443/convert"
    std::string ca_pem;  // the CA that signed the server's certificate (the caBundle)
};

// Which CustomResourceDefinitions to install, and how long to wait for them (envtest.CRDInstallOptions).
struct CRDInstallOptions {
    // Manifest files, or directories whose *.yaml, *.yml and *.json files are read (not recursively,
    // in name order). A file may hold several documents; documents of other kinds are skipped.
    std::vector<std::string> paths{};
    // Manifests given as text (YAML or JSON), read like the files.
    std::vector<std::string> manifests{};
    // A path that does not exist is NotFound (default). false: it is skipped.
    bool error_if_path_missing = true;
    // How long InstallCRDs waits until every CRD is served.
    std::chrono::milliseconds max_time{std::chrono::seconds(60)};
    // How often it asks the server meanwhile.
    std::chrono::milliseconds poll_interval{std::chrono::milliseconds(100)};
    // When set, each CRD whose spec.conversion.strategy is Webhook is installed pointed at this
    // client: its clientConfig becomes {url, caBundle} and its conversionReviewVersions [v1,
    // v1beta1] unless the manifest names them (controller-runtime's envtest does the same for a
    // convertible kind). Without, such a CRD is installed as written.
    std::optional<ConversionWebhookClient> conversion_webhook{};
};

// The CRDs the options name, in order (apiextensions.k8s.io/v1 only: another version is BadRequest).
// NotFound for a missing path (unless error_if_path_missing is false), BadRequest naming the file for
// malformed YAML.
StatusOr<std::vector<api::CustomResourceDefinition>> ReadCRDs(const CRDInstallOptions& options);

// The CRD pointed at client when its spec.conversion.strategy is Webhook (see
// CRDInstallOptions::conversion_webhook); other CRDs are left as they are.
Status PointConversionAt(api::CustomResourceDefinition& crd, const ConversionWebhookClient& client);

// Creates the CRDs the options name on the server config points to (an existing one of the same name
// is updated to the manifest), then waits until each is Established and every served version's
// resource is in the server's discovery, so clients and caches can use the kinds at once. Returns
// the CRDs as the server last answered. Timeout, naming the CRDs not served yet, after max_time.
// Blocks the calling thread (it runs its own event loop); not from a coroutine.
StatusOr<std::vector<api::CustomResourceDefinition>> InstallCRDs(const rest::Config& config,
                                                                 const CRDInstallOptions& options);

// Deletes the CRDs the options name from the server config points to and waits until each is
// gone (envtest.UninstallCRDs); a CRD that is not there is skipped. The server lets a CRD go only
// after its own finalizer (customresourcecleanup) has deleted the CRD's objects, and that
// finalizer's first try fails on a CRD whose objects were never read (their watch cache is built by
// that try and answers "storage is (re)initializing" while it loads); it retries with a backoff
// that doubles from 5 ms, which on a loaded machine grows to minutes. So while a CRD reports that
// failure (Terminating: InstanceDeletionFailed), UninstallCRDs annotates it, at once and then at
// most once a second (envtest.ctrl.dev/cleanup-retry), an update that puts it back on the
// finalizer's queue at once. Timeout after max_time names each CRD still there, its Terminating
// condition and how many retries were asked. Blocks the calling thread (it runs its own event
// loop); not from a coroutine.
Status UninstallCRDs(const rest::Config& config, const CRDInstallOptions& options);

}  // namespace ctrl::envtest
