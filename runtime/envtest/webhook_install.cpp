#include "ctrl/envtest/webhook_install.hpp"

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "ctrl/client/client.hpp"
#include "ctrl/core/base64.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/internal/read_file.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/envtest/free_port.hpp"
#include "ctrl/envtest/internal/installer_client.hpp"
#include "ctrl/envtest/internal/manifest_files.hpp"
#include "ctrl/envtest/pki.hpp"
#include "ctrl/envtest/yaml_json.hpp"

namespace ctrl::envtest {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kAdmissionRegistration = "admissionregistration.k8s.io/v1";

bool IsWebhookConfiguration(const Object& object) {
    return object.ApiVersion() == kAdmissionRegistration &&
           (object.Kind() == "ValidatingWebhookConfiguration" || object.Kind() == "MutatingWebhookConfiguration");
}

// The configurations among documents (JSON); `origin` names them in errors.
Status AppendConfigurations(const std::vector<std::string>& documents, const std::string& origin,
                            std::vector<Object>& out) {
    for (const std::string& json : documents) {
        StatusOr<Object> object = Object::Parse(json);
        if (!object.Ok())
            return object.GetStatus().Annotate(origin);
        if (IsWebhookConfiguration(*object))
            out.push_back(std::move(*object));
    }
    return OkStatus();
}

StatusOr<std::vector<Object>> ReadConfigurations(const WebhookInstallOptions& options) {
    std::vector<Object> configurations;
    for (const std::string& path : options.paths) {
        CTRL_ASSIGN_OR_RETURN(std::vector<fs::path> files, internal::ManifestFiles(path, true, "webhook"));
        for (const fs::path& file : files) {
            CTRL_ASSIGN_OR_RETURN(std::vector<std::string> documents, YamlFileDocumentsToJson(file.string()));
            CTRL_RETURN_IF_ERROR(AppendConfigurations(documents, file.string(), configurations));
        }
    }
    for (std::size_t i = 0; i < options.manifests.size(); ++i) {
        const std::string origin = "webhook manifest " + std::to_string(i);
        StatusOr<std::vector<std::string>> documents = YamlDocumentsToJson(options.manifests[i]);
        if (!documents.Ok())
            return documents.GetStatus().Annotate(origin);
        CTRL_RETURN_IF_ERROR(AppendConfigurations(*documents, origin, configurations));
    }
    return configurations;
}

// Points every webhook of configuration at base_url (keeping its service path) with ca_bundle.
Status PointAtLocalServer(Object& configuration, const std::string& base_url, const std::string& ca_bundle) {
    const std::string name(configuration.Name());
    StatusOr<std::vector<Object>> webhooks = configuration.NestedSlice({"webhooks"});
    if (!webhooks.Ok())
        return BadRequestError(std::string(configuration.Kind()) + " " + name + ": no webhooks");
    std::string list = "[";
    for (Object& webhook : *webhooks) {
        if (!webhook.HasNestedField({"clientConfig"}))
            return BadRequestError(std::string(configuration.Kind()) + " " + name + ": a webhook has no clientConfig");
        StatusOr<std::string> path = webhook.NestedString({"clientConfig", "service", "path"});
        (void)webhook.RemoveNestedField({"clientConfig"});
        CTRL_RETURN_IF_ERROR(webhook.SetNestedString({"clientConfig", "url"}, base_url + (path.Ok() ? *path : "/")));
        CTRL_RETURN_IF_ERROR(webhook.SetNestedString({"clientConfig", "caBundle"}, ca_bundle));
        list += (list.size() > 1 ? "," : "") + webhook.ToJson();
    }
    CTRL_ASSIGN_OR_RETURN(Object rewritten, Object::Parse(list + "]"));
    return configuration.SetNestedField({"webhooks"}, rewritten);
}

}  // namespace

StatusOr<InstalledWebhooks> InstallWebhooks(const rest::Config& config, const WebhookInstallOptions& options) {
    CTRL_ASSIGN_OR_RETURN(std::vector<Object> configurations, ReadConfigurations(options));
    InstalledWebhooks installed;
    installed.host = options.local_serving_host;
    installed.port = options.local_serving_port;
    if (installed.port == 0) {
        CTRL_ASSIGN_OR_RETURN(std::vector<int> ports, FreePorts(1));
        installed.port = ports.front();
    }
    installed.cert_dir = options.local_serving_cert_dir;
    if (installed.cert_dir.empty()) {
        std::string pattern = (fs::temp_directory_path() / "ctrl-envtest-webhook-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr)
            return InternalError("envtest: cannot make a directory for the webhook certificate");
        installed.cert_dir = pattern;
    }
    std::error_code ignored;
    fs::create_directories(installed.cert_dir, ignored);
    CTRL_ASSIGN_OR_RETURN(Pki pki, Pki::Create(installed.cert_dir));
    CTRL_RETURN_IF_ERROR(pki.IssueServing("tls", "ctrl-envtest-webhook").GetStatus());
    CTRL_ASSIGN_OR_RETURN(installed.ca_pem, ctrl::internal::ReadFile(pki.CaCert()));
    const std::string base_url = "https://" + installed.host + ":" + std::to_string(installed.port);
    for (Object& configuration : configurations)
        CTRL_RETURN_IF_ERROR(PointAtLocalServer(configuration, base_url, Base64Encode(installed.ca_pem)));
    CTRL_ASSIGN_OR_RETURN(std::unique_ptr<internal::InstallerClient> installer, internal::InstallerClient::New(config));
    for (Object& configuration : configurations) {
        const Context ctx = Context::WithTimeout(Context::Background(), std::chrono::seconds(30));
        CTRL_RETURN_IF_ERROR(
            RunSync(installer->io, internal::CreateOrUpdate(ctx, *installer->client, configuration))
                .Annotate("installing " + std::string(configuration.Kind()) + " " + std::string(configuration.Name())));
        (configuration.Kind() == "ValidatingWebhookConfiguration" ? installed.validating : installed.mutating)
            .push_back(std::string(configuration.Name()));
    }
    return installed;
}

}  // namespace ctrl::envtest
