// Kubeconfig YAML and exec-plugin output: any text either fails with a BadRequest or gives a
// kubeconfig whose contexts resolve (or fail with a BadRequest) without a crash; no error message
// ever carries a credential: each context is resolved again with its user's token, password and
// client key replaced by a marker no message text can contain by chance, and so is the exec output
// with its token and client key replaced; a marker in an error is a leak.
//
// Input: the kubeconfig text, then optionally "\n#exec\n" and an exec plugin's stdout. Only
// entries that name no file are resolved, so a run never reads the machine's files.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/core/rfc3339.hpp"
#include "ctrl/rest/internal/exec_json.hpp"
#include "ctrl/rest/internal/kubeconfig_resolve.hpp"
#include "ctrl/rest/internal/kubeconfig_yaml.hpp"
#include "test/fuzz/fuzz_input.hpp"

namespace ctrl::fuzz {
namespace {

using rest::internal::KubeconfigCluster;
using rest::internal::KubeconfigContext;
using rest::internal::KubeconfigFile;
using rest::internal::KubeconfigUser;
using rest::internal::Named;

// Stands for a credential. Valid base64 (so client-key-data decodes) and a valid token.
constexpr std::string_view kMarker = "c2VjcmV0LW1hcmtlci0xNzQ5";

void ExpectNoMarker(const Status& status, std::string_view what) {
    if (!status.Ok() && status.ToString().find(kMarker) != std::string::npos)
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
        ExpectOkOrBadRequest(config.GetStatus(), "a kubeconfig resolution error that is not BadRequest");
        for (std::string KubeconfigUser::*credential :
             {&KubeconfigUser::token, &KubeconfigUser::password, &KubeconfigUser::client_key_data}) {
            if ((user->value.*credential).empty())
                continue;
            Named<KubeconfigUser> marked = *user;
            marked.value.*credential = std::string(kMarker);
            const StatusOr<rest::Config> again = rest::internal::ResolveContext(context, *cluster, marked);
            ExpectNoMarker(again.GetStatus(), "a kubeconfig resolution error shows a credential of the user");
        }
    }
}

void CheckKubeconfig(std::string_view text) {
    const StatusOr<KubeconfigFile> file = rest::internal::ParseKubeconfig(text, "/fuzz/kubeconfig");
    ExpectOkOrBadRequest(file.GetStatus(), "a kubeconfig parse error that is not BadRequest");
    if (file.Ok())
        ResolveEveryContext(file.Value());
}

// The output again with the string at path replaced by the marker; nullopt when there is none.
std::optional<std::string> WithMarkerAt(const Object& output, FieldPath path) {
    if (!output.NestedString(path).Ok())
        return std::nullopt;
    Object marked = output.DeepCopy();
    if (!marked.SetNestedString(path, kMarker).Ok())
        return std::nullopt;
    return marked.ToJson();
}

void CheckExecOutput(std::string_view output) {
    StatusOr<Object> object = Object::Parse(output);
    for (const std::string_view api_version : {std::string_view("client.authentication.k8s.io/v1"),
                                               std::string_view("client.authentication.k8s.io/v1beta1")}) {
        const StatusOr<rest::ExecCredential> credential = rest::internal::ParseExecCredential(output, api_version);
        ExpectOkOrBadRequest(credential.GetStatus(), "an exec credential parse error that is not BadRequest");
        if (!object.Ok())
            continue;
        for (const std::optional<std::string>& marked : {WithMarkerAt(object.Value(), {"status", "token"}),
                                                         WithMarkerAt(object.Value(), {"status", "clientKeyData"})}) {
            if (marked)
                ExpectNoMarker(rest::internal::ParseExecCredential(*marked, api_version).GetStatus(),
                               "an exec credential error shows the credential");
        }
    }
    (void)ParseRfc3339(output);
}

}  // namespace
}  // namespace ctrl::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // An input that holds the marker itself (the fuzzer learns constants) cannot show a leak.
    if (std::string_view(reinterpret_cast<const char*>(data), size).find(ctrl::fuzz::kMarker) != std::string_view::npos)
        return 0;
    ctrl::fuzz::FuzzInput input(data, size);
    const std::string_view kubeconfig = input.TakeUntil("\n#exec\n");
    ctrl::fuzz::CheckKubeconfig(kubeconfig);
    if (!input.Empty())
        ctrl::fuzz::CheckExecOutput(input.TakeRest());
    return 0;
}
