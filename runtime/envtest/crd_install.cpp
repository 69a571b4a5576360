#include "ctrl/envtest/crd_install.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "ctrl/client/client.hpp"
#include "ctrl/core/base64.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/discovery/discovery_client.hpp"
#include "ctrl/envtest/internal/installer_client.hpp"
#include "ctrl/envtest/internal/manifest_files.hpp"
#include "ctrl/envtest/yaml_json.hpp"

namespace ctrl::envtest {
namespace {

namespace fs = std::filesystem;
using api::CustomResourceDefinition;

// Appends the CRDs among documents (JSON); `origin` names them in errors.
Status AppendCRDs(const std::vector<std::string>& documents, const std::string& origin,
                  std::vector<CustomResourceDefinition>& out) {
    for (const std::string& json : documents) {
        CTRL_ASSIGN_OR_RETURN(Object object, Object::Parse(json));
        if (object.Kind() != "CustomResourceDefinition")
            continue;
        if (object.ApiVersion() != "apiextensions.k8s.io/v1") {
            return BadRequestError(origin + ": CustomResourceDefinition " + std::string(object.Name()) + " is " +
                                   std::string(object.ApiVersion()) + "; the server serves apiextensions.k8s.io/v1");
        }
        StatusOr<CustomResourceDefinition> crd = CustomResourceDefinition::FromObject(std::move(object));
        if (!crd.Ok())
            return crd.GetStatus().Annotate(origin);
        out.push_back(std::move(*crd));
    }
    return OkStatus();
}

// Whether crd is Established and each served version lists its resource in discovery; `why` says
// what is missing when not.
Task<StatusOr<bool>> Served(Context ctx, client::Client& client, discovery::DiscoveryClient& discovery,
                            CustomResourceDefinition& crd, std::string& why) {
    CTRL_CO_RETURN_IF_ERROR(co_await client.Get(ctx, ObjectKey("", std::string(crd.Name())), crd));
    if (!crd.IsEstablished()) {
        why = "not Established yet";
        co_return false;
    }
    const std::string plural = crd.Names().plural;
    for (const GroupVersionKind& gvk : crd.ServedKinds()) {
        StatusOr<discovery::GroupVersionResources> served =
            co_await discovery.FetchGroupVersion(ctx, GroupVersion(gvk.group, gvk.version));
        const bool listed = served.Ok() && std::any_of(served->resources.begin(), served->resources.end(),
                                                       [&](const auto& resource) { return resource.name == plural; });
        if (!listed) {
            why = plural + " not in discovery of " + gvk.group + "/" + gvk.version + " yet" +
                  (served.Ok() ? "" : " (" + served.GetStatus().ToString() + ")");
            co_return false;
        }
    }
    co_return true;
}

Task<Status> InstallAndWait(client::Client& client, discovery::DiscoveryClient& discovery,
                            std::vector<CustomResourceDefinition>& crds, const CRDInstallOptions& options) {
    Context ctx = Context::WithTimeout(Context::Background(), options.max_time);
    for (CustomResourceDefinition& crd : crds) {
        Status status = co_await internal::CreateOrUpdate(ctx, client, crd);
        if (!status.Ok())
            co_return status.Annotate("installing CustomResourceDefinition " + std::string(crd.Name()));
    }
    std::vector<std::string> why(crds.size());
    std::vector<bool> served(crds.size(), false);
    for (;;) {
        std::string waiting;
        for (size_t i = 0; i < crds.size(); ++i) {
            if (served[i])
                continue;
            StatusOr<bool> now = co_await Served(ctx, client, discovery, crds[i], why[i]);
            // A check cut short by the deadline keeps what the last one saw: that names the cause.
            if (!now.Ok() && (ctx.Err().Ok() || why[i].empty()))
                why[i] = now.GetStatus().ToString();
            served[i] = now.Ok() && *now;
            if (!served[i])
                waiting += (waiting.empty() ? "" : "; ") + std::string(crds[i].Name()) + ": " + why[i];
        }
        if (waiting.empty())
            co_return OkStatus();
        if (!(co_await SleepFor(ctx, options.poll_interval)).Ok()) {
            co_return TimeoutError("CustomResourceDefinitions not served within " +
                                   std::to_string(options.max_time.count()) + " ms: " + waiting);
        }
    }
}

}  // namespace

StatusOr<std::vector<CustomResourceDefinition>> ReadCRDs(const CRDInstallOptions& options) {
    std::vector<CustomResourceDefinition> crds;
    for (const std::string& path : options.paths) {
        CTRL_ASSIGN_OR_RETURN(std::vector<fs::path> files,
                              internal::ManifestFiles(path, options.error_if_path_missing, "CRD"));
        for (const fs::path& file : files) {
            CTRL_ASSIGN_OR_RETURN(std::vector<std::string> documents, YamlFileDocumentsToJson(file.string()));
            CTRL_RETURN_IF_ERROR(AppendCRDs(documents, file.string(), crds));
        }
    }
    for (size_t i = 0; i < options.manifests.size(); ++i) {
        const std::string origin = "manifest " + std::to_string(i);
        StatusOr<std::vector<std::string>> documents = YamlDocumentsToJson(options.manifests[i]);
        if (!documents.Ok())
            return documents.GetStatus().Annotate(origin);
        CTRL_RETURN_IF_ERROR(AppendCRDs(*documents, origin, crds));
    }
    return crds;
}

Status PointConversionAt(CustomResourceDefinition& crd, const ConversionWebhookClient& client) {
    if (crd.NestedString({"spec", "conversion", "strategy"}).ValueOr("") != "Webhook")
        return OkStatus();
    (void)crd.RemoveNestedField({"spec", "conversion", "webhook", "clientConfig"});
    CTRL_RETURN_IF_ERROR(crd.SetNestedString({"spec", "conversion", "webhook", "clientConfig", "url"}, client.url));
    CTRL_RETURN_IF_ERROR(crd.SetNestedString({"spec", "conversion", "webhook", "clientConfig", "caBundle"},
                                             Base64Encode(client.ca_pem)));
    if (!crd.HasNestedField({"spec", "conversion", "webhook", "conversionReviewVersions"}))
        CTRL_RETURN_IF_ERROR(
            crd.SetNestedStringSlice({"spec", "conversion", "webhook", "conversionReviewVersions"}, {"v1", "v1beta1"}));
    return OkStatus();
}

StatusOr<std::vector<CustomResourceDefinition>> InstallCRDs(const rest::Config& config,
                                                            const CRDInstallOptions& options) {
    CTRL_ASSIGN_OR_RETURN(std::vector<CustomResourceDefinition> crds, ReadCRDs(options));
    if (crds.empty())
        return crds;
    if (options.conversion_webhook) {
        for (CustomResourceDefinition& crd : crds)
            CTRL_RETURN_IF_ERROR(PointConversionAt(crd, *options.conversion_webhook)
                                     .Annotate("CustomResourceDefinition " + std::string(crd.Name())));
    }
    CTRL_ASSIGN_OR_RETURN(std::unique_ptr<internal::InstallerClient> installer, internal::InstallerClient::New(config));
    discovery::DiscoveryClient discovery(*installer->rest, discovery::DiscoveryOptions{.aggregated = false},
                                         installer->registry);
    CTRL_RETURN_IF_ERROR(RunSync(installer->io, InstallAndWait(*installer->client, discovery, crds, options)));
    return crds;
}

}  // namespace ctrl::envtest
