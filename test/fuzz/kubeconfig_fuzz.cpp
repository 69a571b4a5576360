// Kubeconfig YAML and exec-plugin output: any text either fails with a BadRequest or gives a
// kubeconfig whose contexts resolve (or fail with a BadRequest) without a crash; no error message
// ever carries a credential the input holds (a token, a password, an exec plugin's token).
//
// Input: the kubeconfig text, then optionally "\n#exec\n" and an exec plugin's stdout. Only
// entries that name no file are resolved, so a run never reads the machine's files.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/core/object.hpp"
#include "runtime/rest/internal/exec_json.hpp"
#include "runtime/rest/internal/kubeconfig_resolve.hpp"
#include "runtime/rest/internal/kubeconfig_yaml.hpp"
#include "test/fuzz/fuzz_input.hpp"

namespace ctrl::fuzz {
namespace {

using rest::internal::KubeconfigCluster;
using rest::internal::KubeconfigContext;
using rest::internal::KubeconfigFile;
using rest::internal::KubeconfigUser;
using rest::internal::Named;

// Credentials this short also occur in ordinary words of an error message.
constexpr std::size_t kShortestSecretChecked = 6;

// The text under test, so that a secret that also appears elsewhere in it (as a name an error may
// rightly quote) is not taken for a leak.
thread_local std::string_view g_input;

bool OccursMoreThanOnce(std::string_view text, std::string_view part) {
    const std::size_t first = text.find(part);
    return first != std::string_view::npos && text.find(part, first + 1) != std::string_view::npos;
}

void ExpectNoSecret(const Status& status, std::string_view secret, std::string_view what) {
    if (status.Ok() || secret.size() < kShortestSecretChecked || OccursMoreThanOnce(g_input, secret))
        return;
    if (status.ToString().find(secret) != std::string::npos)
        PropertyFailed(what, status.ToString());
}

void ExpectBadRequest(const Status& status, std::string_view what) {
    if (!status.Ok() && status.Code() != StatusCode::kBadRequest)
        PropertyFailed(what, status.ToString());
}

template <typename T>
const Named<T>* Find(const std::vector<Named<T>>& entries, const std::string& name) {
    for (const Named<T>& entry : entries)
        if (entry.name == name)
            return &entry;
    return nullptr;
}

bool NamesAFile(const KubeconfigCluster& cluster, const KubeconfigUser& user) {
    return !cluster.certificate_authority.empty() || !user.client_certificate.empty() || !user.client_key.empty() ||
           !user.token_file.empty();
}

void ResolveEveryContext(const KubeconfigFile& file) {
    for (const Named<KubeconfigContext>& context : file.contexts) {
        const Named<KubeconfigCluster>* cluster = Find(file.clusters, context.value.cluster);
        const Named<KubeconfigUser>* user = Find(file.users, context.value.user);
        if (cluster == nullptr || user == nullptr || NamesAFile(cluster->value, user->value))
            continue;
        const StatusOr<rest::Config> config = rest::internal::ResolveContext(context, *cluster, *user);
        ExpectBadRequest(config.GetStatus(), "a kubeconfig resolution error that is not BadRequest");
        ExpectNoSecret(config.GetStatus(), user->value.token, "a resolution error shows the user's token");
        ExpectNoSecret(config.GetStatus(), user->value.password, "a resolution error shows the user's password");
        ExpectNoSecret(config.GetStatus(), user->value.client_key_data,
                       "a resolution error shows the user's client key data");
    }
}

void CheckKubeconfig(std::string_view text) {
    const StatusOr<KubeconfigFile> file = rest::internal::ParseKubeconfig(text, "/fuzz/kubeconfig");
    ExpectBadRequest(file.GetStatus(), "a kubeconfig parse error that is not BadRequest");
    if (file.Ok())
        ResolveEveryContext(file.Value());
}

void CheckExecOutput(std::string_view output) {
    for (const std::string_view api_version : {std::string_view("client.authentication.k8s.io/v1"),
                                               std::string_view("client.authentication.k8s.io/v1beta1")}) {
        const StatusOr<rest::ExecCredential> credential = rest::internal::ParseExecCredential(output, api_version);
        ExpectBadRequest(credential.GetStatus(), "an exec credential parse error that is not BadRequest");
        if (credential.Ok())
            continue;
        StatusOr<Object> object = Object::Parse(output);
        if (!object.Ok())
            continue;
        const StatusOr<std::string> token = object.Value().NestedString({"status", "token"});
        if (token.Ok())
            ExpectNoSecret(credential.GetStatus(), token.Value(), "an exec credential error shows the token");
        const StatusOr<std::string> key = object.Value().NestedString({"status", "clientKeyData"});
        if (key.Ok())
            ExpectNoSecret(credential.GetStatus(), key.Value(), "an exec credential error shows the client key");
    }
    (void)rest::internal::ParseRfc3339(output);
}

}  // namespace
}  // namespace ctrl::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    ctrl::fuzz::g_input = std::string_view(reinterpret_cast<const char*>(data), size);
    ctrl::fuzz::FuzzInput input(data, size);
    const std::string_view kubeconfig = input.TakeUntil("\n#exec\n");
    ctrl::fuzz::CheckKubeconfig(kubeconfig);
    if (!input.Empty())
        ctrl::fuzz::CheckExecOutput(input.TakeRest());
    return 0;
}
